import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A GitHub user as its REST API shows one (`GET /user`, `GET /user/emails`). */
export interface GitHubUser {
  readonly id: number;
  readonly login: string;
  readonly name: string | null;
  readonly emails: readonly { readonly email: string; readonly primary: boolean; readonly verified: boolean }[];
}

/** GitHub's OAuth endpoints and the two API endpoints social sign-in reads, on one local origin. */
export interface GitHubStandIn {
  /** The origin serving both the web endpoints (issuer) and the API (apiUrl). */
  readonly url: string;
  setUser(user: GitHubUser): void;
  /** Follows an authorization URL; resolves to the redirect to the client (code and state). */
  signIn(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

interface Grant {
  readonly challenge: string;
  readonly redirectUri: string;
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

const bodyOf = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(body));
  });

/**
 * Starts the stand-in on a free port of 127.0.0.1. As GitHub documents: the authorize endpoint redirects with `code`
 * and `state` (it requires an S256 `code_challenge`); the token endpoint takes a form with client_id, client_secret,
 * code and code_verifier and answers JSON only when asked (`Accept: application/json`), with errors as a 200 body.
 */
export async function startGitHubStandIn(options: { readonly clientId: string; readonly clientSecret: string }): Promise<GitHubStandIn> {
  const grants = new Map<string, Grant>();
  const tokens = new Set<string>();
  let user: GitHubUser | undefined;

  const authorize = (url: URL, res: ServerResponse): void => {
    const challenge = url.searchParams.get('code_challenge');
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    if (url.searchParams.get('client_id') !== options.clientId || challenge === null || url.searchParams.get('code_challenge_method') !== 'S256') {
      return json(res, 400, { error: 'invalid_request' });
    }
    const code = randomBytes(10).toString('hex');
    grants.set(code, { challenge, redirectUri });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    res.writeHead(302, { location: back.href }).end();
  };

  const exchange = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const form = new URLSearchParams(await bodyOf(req));
    const code = form.get('code') ?? '';
    const grant = grants.get(code);
    grants.delete(code);
    const verifier = form.get('code_verifier') ?? '';
    const answer = (body: object): void => {
      if ((req.headers.accept ?? '').includes('application/json')) return json(res, 200, body);
      res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' }).end(new URLSearchParams(body as Record<string, string>).toString());
    };
    if (form.get('client_id') !== options.clientId || form.get('client_secret') !== options.clientSecret) return answer({ error: 'incorrect_client_credentials' });
    if (grant === undefined || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) return answer({ error: 'bad_verification_code' });
    const token = `gho_${randomBytes(16).toString('hex')}`;
    tokens.add(token);
    answer({ access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
  };

  const api = (path: string, req: IncomingMessage, res: ServerResponse): void => {
    const token = /^(?:bearer|token) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (token === undefined || !tokens.has(token) || user === undefined) return json(res, 401, { message: 'Bad credentials' });
    if (path === '/user') return json(res, 200, { id: user.id, login: user.login, name: user.name, email: null });
    json(res, 200, user.emails.map((email) => ({ ...email, visibility: email.primary ? 'private' : null })));
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/login/oauth/authorize' && req.method === 'GET') return authorize(url, res);
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      exchange(req, res).catch(() => json(res, 500, { message: 'stand-in failed' }));
      return;
    }
    if ((url.pathname === '/user' || url.pathname === '/user/emails') && req.method === 'GET') return api(url.pathname, req, res);
    json(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setUser: (next) => void (user = next),
    signIn: async (authorizationUrl) => {
      const response = await fetch(authorizationUrl, { redirect: 'manual' });
      return new URL(response.headers.get('location') ?? '');
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
