/**
 * A local OpenID provider for development only (`npm run dev:provider`): panva's oidc-provider on 127.0.0.1 with one
 * client for the service on `SERVICE_URL` (default http://localhost:3000), a sign-in page that takes any address,
 * and consent given by itself. Never for production: it signs in whoever types an address.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

/** Imported by name at run time: the package ships no type declarations. */
const PACKAGE = 'oidc-provider';

/** The client the service is configured with (OAUTH_DEV_CLIENT_ID, OAUTH_DEV_CLIENT_SECRET): a development value. */
export const DEV_CLIENT = { id: 'account-service-dev', secret: 'dev-provider-secret-not-for-production' } as const;

interface Interaction {
  readonly uid: string;
  readonly grantId?: string;
  readonly params: Record<string, unknown>;
  readonly session?: { readonly accountId?: string };
  readonly prompt: { readonly name: string; readonly details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[] } };
}

interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  save(): Promise<string>;
}

/** The part of oidc-provider used here (the package ships no type declarations). */
interface Provider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: object, options: { mergeWithLastSubmission: boolean }): Promise<void>;
  readonly Grant: { new (init: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
}

export interface DevProvider {
  readonly issuer: string;
  /** The variables that point the service at this provider, as `NAME=value` lines. */
  readonly serviceEnv: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const signInPage = (uid: string): string => `<!doctype html><meta charset="utf-8"><title>Development provider</title>
<h1>Sign in (development provider)</h1><p>Any address signs in: never use this provider in production.</p>
<form method="post" action="/interaction/${escape(uid)}">
<label>E-mail <input name="email" type="email" required autofocus></label>
<label>Name <input name="name" value="Ada Lovelace"></label>
<label><input name="verified" type="checkbox" value="false"> the address is NOT verified</label>
<button>Sign in</button></form>`;

const formOf = async (req: IncomingMessage): Promise<URLSearchParams> => {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return new URLSearchParams(body);
};

/** The account of an address at this provider: its subject is derived from the address, so it stays the same. */
const accounts = new Map<string, Record<string, string | boolean>>();

async function interact(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    if (req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(signInPage(details.uid));
      return;
    }
    const form = await formOf(req);
    const email = form.get('email')?.trim().toLowerCase() ?? '';
    const sub = `dev-${createHash('sha256').update(email).digest('hex').slice(0, 16)}`;
    accounts.set(sub, { email, email_verified: form.get('verified') !== 'false', name: form.get('name') ?? '' });
    await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = (details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)) ??
    new provider.Grant({ accountId: details.session?.accountId ?? '', clientId: String(details.params['client_id']) });
  if (details.prompt.details.missingOIDCScope) grant.addOIDCScope(details.prompt.details.missingOIDCScope.join(' '));
  if (details.prompt.details.missingOIDCClaims) grant.addOIDCClaims(details.prompt.details.missingOIDCClaims);
  await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
}

/** Starts the development provider on 127.0.0.1:`port` (0: a free one) for the service at `serviceUrl`. */
export async function startDevProvider(options: { readonly port: number; readonly serviceUrl: string }): Promise<DevProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { default: ProviderOf } = (await import(PACKAGE)) as { default: new (issuer: string, configuration: object) => Provider };
  const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const provider = new ProviderOf(issuer, {
    clients: [{ client_id: DEV_CLIENT.id, client_secret: DEV_CLIENT.secret, redirect_uris: [`${options.serviceUrl}/auth/oauth/dev/callback`], id_token_signed_response_alg: 'ES256' }],
    jwks: { keys: [{ ...signing, kid: 'dev', use: 'sig', alg: 'ES256' }] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    cookies: { keys: ['development provider cookie key'] },
    findAccount: (_ctx: unknown, sub: string) => {
      const claims = accounts.get(sub);
      return claims && { accountId: sub, claims: () => ({ ...claims, sub }) };
    },
  });
  const handle = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    interact(provider, req, res).catch((error: unknown) => res.writeHead(400).end(String(error)));
  });
  return {
    issuer,
    serviceEnv: {
      PUBLIC_API_URL: options.serviceUrl,
      OAUTH_PROVIDERS: 'dev',
      OAUTH_DEV_ISSUER: issuer,
      OAUTH_DEV_CLIENT_ID: DEV_CLIENT.id,
      OAUTH_DEV_CLIENT_SECRET: DEV_CLIENT.secret,
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.env['DEV_PROVIDER_PORT'] ?? 4000);
  const started = await startDevProvider({ port, serviceUrl: process.env['SERVICE_URL'] ?? 'http://localhost:3000' });
  const env = Object.entries(started.serviceEnv).map(([name, value]) => `${name}=${value}`).join(' ');
  process.stdout.write(`Development OpenID provider at ${started.issuer} (never for production).\nStart the service with:\n  ${env} npm start\n`);
}
