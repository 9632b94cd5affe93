import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The few claims a test account shows (the provider adds `sub`). */
export type AccountClaims = Readonly<Record<string, string | boolean>>;

/** A real OpenID provider (panva's oidc-provider 9) on 127.0.0.1, with one confidential client. */
export interface OidcTestProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Creates or replaces the account `sub`. */
  setAccount(sub: string, claims: AccountClaims): void;
  /** Follows an authorization URL, signs `sub` in and consents; resolves to the redirect to the client (code, state, iss). */
  signIn(authorizationUrl: string, sub: string): Promise<URL>;
  /** Follows an authorization URL and refuses at the login prompt; resolves to the redirect with `error=access_denied`. */
  deny(authorizationUrl: string): Promise<URL>;
  /**
   * For a real browser, which sends no `?sub=`: from now on the interaction page signs `sub` in and consents on its
   * own (the same `interactionFinished` as `signIn`); `null` turns it off (a page without `?sub=` signs no one in).
   */
  autoLogin(sub: string | null): void;
  close(): Promise<void>;
}

interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(indicator: string, scope: string): void;
  save(): Promise<string>;
}

interface InteractionDetails {
  readonly grantId?: string;
  readonly params: Record<string, unknown>;
  readonly session?: { readonly accountId?: string };
  readonly prompt: {
    readonly name: string;
    readonly details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  };
}

/** The part of oidc-provider's Provider these tests use (the package ships no type declarations). */
interface Provider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: object, options?: { mergeWithLastSubmission: boolean }): Promise<void>;
  readonly Grant: { new (init: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
}
type ProviderClass = new (issuer: string, configuration: object) => Provider;

const PACKAGE = 'oidc-provider';
const TTL = { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 };

/** oidc-provider's storage as a plain map (its default one says it is for development only, on every start). */
class MapAdapter {
  private static readonly stored = new Map<string, Record<string, unknown>>();
  constructor(private readonly model: string) {}
  private keyOf = (id: string): string => `${this.model}:${id}`;
  upsert(id: string, payload: Record<string, unknown>): Promise<void> {
    MapAdapter.stored.set(this.keyOf(id), payload);
    return Promise.resolve();
  }
  find(id: string): Promise<Record<string, unknown> | undefined> {
    return Promise.resolve(MapAdapter.stored.get(this.keyOf(id)));
  }
  findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
    return Promise.resolve([...MapAdapter.stored.entries()].find(([key, value]) => key.startsWith(`${this.model}:`) && value.uid === uid)?.[1]);
  }
  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  consume(id: string): Promise<void> {
    const payload = MapAdapter.stored.get(this.keyOf(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    return Promise.resolve();
  }
  destroy(id: string): Promise<void> {
    MapAdapter.stored.delete(this.keyOf(id));
    return Promise.resolve();
  }
  revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, value] of MapAdapter.stored) if (value.grantId === grantId) MapAdapter.stored.delete(key);
    return Promise.resolve();
  }
}

const consent = async (provider: Provider, details: InteractionDetails): Promise<object> => {
  const grant =
    (details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)) ??
    new provider.Grant({ accountId: details.session?.accountId ?? '', clientId: String(details.params.client_id) });
  const missing = details.prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  return { consent: { grantId: await grant.save() } };
};

/**
 * Answers the provider's interactions (`/interaction/{uid}`): `?sub=` signs that account in, `?deny=1` refuses; with
 * neither, the subject of `autoLogin` (if any) is signed in.
 */
const interactions = (provider: Provider, autoSub: () => string | null) => async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
  const details = await provider.interactionDetails(req, res);
  if (query.has('deny')) {
    await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the user refused' }, { mergeWithLastSubmission: false });
  } else if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: query.get('sub') ?? autoSub() ?? '' } }, { mergeWithLastSubmission: false });
  } else {
    await provider.interactionFinished(req, res, await consent(provider, details), { mergeWithLastSubmission: true });
  }
};

/** Follows redirects by hand with a cookie jar until one leaves the provider; each interaction gets `query` added. */
const follow = async (issuer: string, start: string, query: string): Promise<URL> => {
  const jar = new Map<string, string>();
  let url = new URL(start);
  for (let hop = 0; hop < 12; hop++) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (location === null) throw new Error(`oidc-provider answered ${response.status} at ${url.pathname}: ${await response.text()}`);
    url = new URL(location, url);
    if (url.origin !== new URL(issuer).origin) return url;
    if (url.pathname.startsWith('/interaction/')) url.search = query;
  }
  throw new Error('too many redirects at the test provider');
};

/** Starts oidc-provider on a free port of 127.0.0.1 (http), PKCE required, claims under scopes `email` and `profile`. */
export async function startOidcTestProvider(options: {
  readonly redirectUris: readonly string[];
  readonly clientId?: string;
  readonly clientSecret?: string;
}): Promise<OidcTestProvider> {
  const clientId = options.clientId ?? 'account-service';
  const clientSecret = options.clientSecret ?? 'a client secret of the test provider';
  const accounts = new Map<string, AccountClaims>();
  let autoSub: string | null = null;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { default: ProviderOf } = (await import(PACKAGE)) as { default: ProviderClass };
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new ProviderOf(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [...options.redirectUris], token_endpoint_auth_method: 'client_secret_basic' }],
    jwks: { keys: [{ ...signing, kid: 'test-signing', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['a cookie key of the test provider'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
    features: { devInteractions: { enabled: false } },
    adapter: MapAdapter,
    ttl: TTL,
    pkce: { required: () => true },
    findAccount: (_ctx: unknown, sub: string) => {
      const claims = accounts.get(sub);
      return claims && { accountId: sub, claims: () => ({ ...claims, sub }) };
    },
  });
  const handle = provider.callback();
  const interact = interactions(provider, () => autoSub);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    interact(req, res).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return {
    issuer,
    clientId,
    clientSecret,
    setAccount: (sub, claims) => void accounts.set(sub, claims),
    signIn: (authorizationUrl, sub) => follow(issuer, authorizationUrl, `?sub=${encodeURIComponent(sub)}`),
    deny: (authorizationUrl) => follow(issuer, authorizationUrl, '?deny=1'),
    autoLogin: (sub) => {
      autoSub = sub;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
