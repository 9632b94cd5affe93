import { createServer } from 'node:net';
import * as client from 'openid-client';
import { admin } from './api-keys.js';

/** A free TCP port on the loopback: the issuer must be known (PUBLIC_API_URL) before the service starts. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/** A browser as far as the flow needs one: its cookies, and no following of redirects (each step is looked at). */
export class Browser {
  private readonly cookies = new Map<string, string>();
  /**
   * `headers`: sent with every request (a browser's `user-agent`); `apps`: addresses within the service that stand
   * for an app (the consoles' landing pages): `follow` stops there as at another origin.
   */
  constructor(
    private readonly origin: string,
    private readonly headers: Record<string, string> = {},
    private readonly apps: readonly string[] = [],
  ) {}

  async go(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...this.headers, cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(new URL(url, this.origin), { method: init.method ?? 'GET', headers, redirect: 'manual', ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}) });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Follows redirects within the service; the first page, or the address outside it (the app's) it ends at. */
  async follow(response: Response): Promise<{ readonly page: Response | null; readonly url: URL | null }> {
    let current = response;
    for (let hops = 0; hops < 10; hops += 1) {
      const location = current.headers.get('location');
      if (location === null) return { page: current, url: null };
      const next = new URL(location, this.origin);
      if (next.origin !== this.origin || this.apps.some((app) => next.href.startsWith(app))) return { page: null, url: next };
      current = await this.go(next.href);
    }
    throw new Error('too many redirects');
  }

  /** Posts the page's one form (its action and CSRF token) with `fields`, and follows where it leads. */
  async submit(html: string, fields: Record<string, string>): Promise<{ readonly page: Response | null; readonly url: URL | null }> {
    return this.follow(await this.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), ...fields } }));
  }
}

/** The CSRF token of the page's form. */
export const csrfIn = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
/** Where the page's (first) form posts. */
export const actionIn = (html: string): string => /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
/** The page's heading, as the person reads it first. */
export const headingOf = (html: string): string => /<h1>([^<]*)/.exec(html)?.[1] ?? '';

/** Registers an app with the admin CLI (its arguments after `create-client`), and discovers the provider as that app. */
export const registerApp = async (dataDir: string, issuer: string, args: readonly string[]) => {
  const made = JSON.parse((await admin(dataDir, ['create-client', ...args])).out[0] ?? '{}') as { client_id: string; client_secret?: string };
  const config = await client.discovery(new URL(issuer), made.client_id, made.client_secret, made.client_secret === undefined ? client.None() : undefined, { execute: [client.allowInsecureRequests] });
  return { ...made, config };
};
