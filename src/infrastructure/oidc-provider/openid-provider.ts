import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyObject } from 'node:crypto';
import Provider, { type ClientMetadata, type KoaContextWithOIDC, errors } from 'oidc-provider';
import type { InteractionSteps } from '../../application/oidc-provider/ports/interaction-steps.port.js';
import type { Store } from '../storage/store.js';
import type { OpenedSession } from '../../application/shared/auth-result.js';
import { SERVICE_PAGES_CLIENT } from '../../application/oidc-provider/ports/service-pages-client.port.js';
import { type AccountEpoch, ClientSecretBox, StoreOidcAdapter } from './store-oidc-adapter.js';

/** The endpoints the engine serves, under one prefix of their own beside the service's `/auth/*` API. */
export const OIDC_PREFIX = '/oidc';
export const OIDC_ROUTES = {
  authorization: `${OIDC_PREFIX}/auth`,
  token: `${OIDC_PREFIX}/token`,
  userinfo: `${OIDC_PREFIX}/me`,
  jwks: `${OIDC_PREFIX}/jwks`,
  end_session: `${OIDC_PREFIX}/session/end`,
  revocation: `${OIDC_PREFIX}/token/revocation`,
  introspection: `${OIDC_PREFIX}/token/introspection`,
  pushed_authorization_request: `${OIDC_PREFIX}/request`,
  device_authorization: `${OIDC_PREFIX}/device/auth`,
  code_verification: `${OIDC_PREFIX}/device`,
  registration: `${OIDC_PREFIX}/reg`,
  backchannel_authentication: `${OIDC_PREFIX}/backchannel`,
  challenge: `${OIDC_PREFIX}/challenge`,
} as const;

/** The engine's model name of the tie between a session at the pages and the API's session its sign-in opened. */
const PAGES_SESSION = 'PagesSession';
/** As long as a session at the pages (`ttl.Session`). */
const PAGES_SESSION_TTL = 14 * 86_400;

/** The scopes the provider grants, and the claims each adds to the ID token and userinfo. */
export const OIDC_SCOPES = ['openid', 'email', 'profile', 'offline_access'] as const;
// `acr`, `amr` and `auth_time` come with `openid` itself: how and when the person signed in, in every ID token.
const CLAIMS = { acr: null, amr: null, auth_time: null, sid: null, openid: ['sub', 'acr', 'amr', 'auth_time'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] };

/**
 * The assurance of a sign-in (`acr`), from how it was proved: `aal2` for two factors, or a passkey (a device the person
 * holds, unlocked by them); `aal1` for one (a password, or a provider's sign-in). In the metadata's `acr_values_supported`.
 */
export const ACR_VALUES = ['aal1', 'aal2'] as const;
const acrOf = (amr: readonly string[]): (typeof ACR_VALUES)[number] => (amr.length > 1 || amr.includes('webauthn') ? 'aal2' : 'aal1');

/** What the provider shows of an account: its claims, or null when there is no such account (any more). */
export type AccountClaims = (accountId: string) => Promise<Readonly<Record<string, unknown>> | null>;

/** The accounts as the provider reads them: their claims, and the epoch that ends what the provider holds of each. */
export interface ProviderAccounts {
  readonly claims: AccountClaims;
  readonly epoch: AccountEpoch;
  /** Whether the API's session `sessionId` of the account is live now (not signed out, not expired). */
  readonly sessionLive: (accountId: string, sessionId: string) => Promise<boolean>;
}

export interface OpenIdProviderSettings {
  /** The issuer, exactly: PUBLIC_API_URL, or http://localhost:{PORT}. */
  readonly issuer: string;
  /** The service's signing key: the ID tokens are signed with it, and its JWKS is the provider's. */
  readonly signingKey: { readonly kid: string; readonly privateKey: KeyObject };
  /** Keys of the engine's cookies (derived from the service's secret), the newest first. */
  readonly cookieKeys: readonly string[];
  /** The key client secrets are sealed under at rest. */
  readonly clientSecretKey: Buffer;
  /** Where the engine sends a browser to sign in or consent (the pages: `{uid}` is the interaction). */
  readonly interactionUrl: (uid: string) => string;
  /** The pages the engine itself shows (the pages' module renders them), with their own Content-Security-Policy. */
  readonly pages: EnginePages;
  readonly secure: boolean;
  /** RFC 8707: the APIs apps may ask tokens for, and the scopes each knows; their access tokens are JWTs (RFC 9068). */
  readonly resources: ReadonlyMap<string, readonly string[]>;
  /** RFC 7591: whether apps may register themselves (never as first-party). */
  readonly registration: boolean;
  /**
   * The service's own API as the built-in consoles' resource: its access tokens are the API's own (the API's `iss`
   * and `aud`, its lifetime, the `sid` of the session the pages' sign-in opened), for that client only.
   */
  readonly api: { readonly issuer: string; readonly audience: string; readonly ttlSeconds: number };
}

/** An attribute of the engine's own small form (its `action`, its hidden xsrf `value`): the pages render their own. */
const attribute = (form: string, name: 'action' | 'value'): string => new RegExp(`${name}="([^"]*)"`).exec(form)?.[1] ?? '';

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The pages the engine shows itself, rendered as the provider's other pages are. */
export interface EnginePages {
  readonly csp: string;
  /** The sign-out confirmation around the engine's own form (its id `op.logoutForm` and its xsrf token). */
  signOut(form: string): string;
  signedOut(): string;
  /** The device flow's code entry (*Code*): posts `user_code` and the engine's `xsrf` to `action`; `retry` after a wrong code. */
  deviceCode(form: { readonly action: string; readonly xsrf: string }, retry: boolean): string;
  /** The device flow's confirmation around the engine's form (`op.deviceConfirmForm`): which app, which code. */
  deviceConfirm(form: string, clientName: string, userCode: string): string;
  deviceDone(clientName: string): string;
  /** A request that cannot go back to an app (an unknown client, a redirect URI not registered): said on a page. */
  error(error: string, description: string | undefined): string;
}

/** The interaction's steps, as the pages complete them, on Node's request and response. */
export type Interactions = InteractionSteps<IncomingMessage, ServerResponse>;

/** The engine as the service sees it: a handler of raw requests, its issuer, and what registering an app needs. */
export interface OpenIdProvider {
  readonly handle: (request: IncomingMessage, response: ServerResponse) => void;
  readonly issuer: string;
  /** The engine's storage of clients (the Client model). */
  readonly clientStorage: StoreOidcAdapter;
  /** The engine's check of a client's metadata: throws what it refuses. */
  readonly validateClient: (metadata: Record<string, unknown>) => Promise<void>;
  readonly interactions: Interactions;
}

/**
 * The service as an OpenID Provider: panva's oidc-provider (OpenID Certified), configured where its defaults differ
 * from what the service promises (docs/oidc-provider.md): PKCE with S256 for every client, the service's ES256 key,
 * `iss` on every authorization response, PAR, the device flow and DPoP on, its state in the project's store (never
 * the engine's memory adapter), secrets of clients sealed and tokens stored as hashes only.
 */
export function openIdProvider(store: Store, settings: OpenIdProviderSettings, accounts: ProviderAccounts): OpenIdProvider {
  const secrets = new ClientSecretBox(settings.clientSecretKey);
  const html = (ctx: KoaContextWithOIDC, body: string): void => {
    ctx.type = 'html';
    ctx.set('content-security-policy', settings.pages.csp);
    ctx.set('cache-control', 'no-store');
    ctx.body = body;
  };
  const grants = new StoreOidcAdapter(store, 'Grant', secrets, errors.InvalidGrant, accounts.epoch);
  // Which session of the service's API each session at the pages stands on (its sign-in opened it): the account's
  // record, ended with its epoch and erased with it as every other record of the engine.
  const pagesSessions = new StoreOidcAdapter(store, PAGES_SESSION, secrets, errors.InvalidGrant, accounts.epoch);
  const apiIndicator = `${settings.issuer}${SERVICE_PAGES_CLIENT.apiPath}`;
  const consoles: ClientMetadata = {
    client_id: SERVICE_PAGES_CLIENT.clientId,
    client_name: 'your account',
    redirect_uris: SERVICE_PAGES_CLIENT.redirectPaths.map((path) => `${settings.issuer}${path}`),
    post_logout_redirect_uris: SERVICE_PAGES_CLIENT.redirectPaths.map((path) => `${settings.issuer}${path}`),
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code'],
    response_types: ['code'],
    first_party: true,
  };
  const jwk = { ...settings.signingKey.privateKey.export({ format: 'jwk' }), kid: settings.signingKey.kid, alg: 'ES256', use: 'sig' };
  const provider = new Provider(settings.issuer, {
    adapter: (model: string) => new StoreOidcAdapter(store, model, secrets, errors.InvalidGrant, accounts.epoch),
    jwks: { keys: [jwk] },
    clients: [consoles],
    routes: OIDC_ROUTES,
    scopes: [...OIDC_SCOPES],
    acrValues: [...ACR_VALUES],
    claims: CLAIMS,
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    // What an operator says of an app beyond the standard metadata: whether it is the service's own, and since when.
    extraClientMetadata: {
      properties: ['first_party', 'created_at'],
      validator: (ctx: KoaContextWithOIDC | undefined, key: string, value: unknown) => {
        if (key === 'first_party' && value !== undefined && typeof value !== 'boolean') throw new errors.InvalidClientMetadata('first_party must be a boolean');
        // An app that registers itself is never the service's own: consent is always asked of it.
        if (key === 'first_party' && value === true && ctx?.oidc.route === 'registration') throw new errors.InvalidClientMetadata('first_party is set by an operator only');
      },
    },
    pkce: { required: () => true },
    // A browser app calls the token endpoint from the origin it is sent back to (one of its redirect URIs): only that
    // origin may read the answer (the consoles' origin is the issuer's own).
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => URL.canParse(uri) && new URL(uri).origin === origin) ?? false,
    // Refresh tokens for `offline_access`, and for the service's own apps; each rotated on use (a reused one revokes the grant).
    issueRefreshToken: (_ctx, client, source) => client.grantTypeAllowed('refresh_token') && (source.scopes.has('offline_access') || client.metadata()['first_party'] === true),
    rotateRefreshToken: () => true,
    enabledJWA: { idTokenSigningAlgValues: ['ES256'], dPoPSigningAlgValues: ['ES256', 'EdDSA', 'RS256', 'PS256'] },
    responseTypes: ['code'],
    // The ID token carries the claims of its scopes (email, profile), as the service promises, not only userinfo.
    conformIdTokenClaims: false,
    clientDefaults: { grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic', id_token_signed_response_alg: 'ES256' },
    ttl: { AuthorizationCode: 60, AccessToken: 900, IdToken: 900, Interaction: 600, Session: PAGES_SESSION_TTL, Grant: 30 * 86_400, DeviceCode: 600, PushedAuthorizationRequest: 60, RefreshToken: 30 * 86_400 },
    cookies: { keys: [...settings.cookieKeys], long: { httpOnly: true, sameSite: 'lax', secure: settings.secure }, short: { httpOnly: true, sameSite: 'lax', secure: settings.secure } },
    features: {
      devInteractions: { enabled: false },
      // An app revokes and introspects its own tokens only: another app's token is `active: false` to it, and its
      // revocation is refused (invalid_request; silently for a public app). An API checks the audience-bound JWT
      // access tokens with the JWKS instead.
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => {
          if (token.clientId === client.clientId) return true;
          if (client.clientAuthMethod === 'none') return false;
          throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
        },
      },
      introspection: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          html(ctx, settings.pages.signOut(form));
        },
        postLogoutSuccessSource: (ctx) => {
          html(ctx, settings.pages.signedOut());
        },
      },
      pushedAuthorizationRequests: { enabled: true },
      // The device flow's pages are the provider's (the engine's own load a font from elsewhere and run inline script).
      // An API (an MCP server) named by `resource` gets an access token of its own: a JWT (RFC 9068) for it alone,
      // signed with the service's key, that it checks with the JWKS; a resource not configured is invalid_target.
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => oneOf,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator, client) => {
          if (indicator === apiIndicator) {
            // The service's own API: for its own consoles only (any other app asks its own API's resource).
            if (client.clientId !== SERVICE_PAGES_CLIENT.clientId) throw new errors.InvalidTarget();
            return { scope: SERVICE_PAGES_CLIENT.apiScope, audience: settings.api.audience, accessTokenTTL: settings.api.ttlSeconds, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } };
          }
          const scopes = settings.resources.get(indicator);
          if (scopes === undefined) throw new errors.InvalidTarget();
          return { scope: scopes.join(' '), audience: indicator, accessTokenTTL: 900, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } };
        },
      },
      // Apps register themselves only when the operator says so (OIDC_DYNAMIC_REGISTRATION); counted per address by the raw route.
      registration: { enabled: settings.registration, initialAccessToken: false, issueRegistrationAccessToken: true },
      deviceFlow: {
        enabled: true,
        userCodeInputSource: (ctx, form, _out, err) => {
          html(ctx, settings.pages.deviceCode({ action: attribute(form, 'action'), xsrf: attribute(form, 'value') }, err !== undefined));
        },
        userCodeConfirmSource: (ctx, form, client, _deviceInfo, userCode) => {
          html(ctx, settings.pages.deviceConfirm(form, client.clientName ?? client.clientId, userCode));
        },
        successSource: (ctx) => {
          html(ctx, settings.pages.deviceDone(ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId ?? 'the app'));
        },
      },
      dPoP: { enabled: true },
    },
    formats: {
      customizers: {
        // The consoles' token is an access token of the service's API: its issuer, and the session the pages' sign-in
        // opened (which the API checks on every request), proved as that sign-in was.
        jwt: async (_ctx, token, jwt) => {
          if (jwt.payload.aud !== settings.api.audience || token.clientId !== SERVICE_PAGES_CLIENT.clientId) return;
          const sessionUid = 'sessionUid' in token ? token.sessionUid : undefined;
          const link = typeof sessionUid === 'string' ? await pagesSessions.find(sessionUid) : undefined;
          const [accountId, sessionId] = [link?.accountId, link?.['sessionId']];
          const live = accountId !== undefined && accountId === jwt.payload.sub && typeof sessionId === 'string' && (await accounts.sessionLive(accountId, sessionId));
          if (!live) throw new errors.InvalidGrant('the sign-in behind this grant is over: sign in again (prompt=login)');
          Object.assign(jwt.payload, { iss: settings.api.issuer, sid: sessionId, amr: link?.['amr'], auth_time: link?.['authTime'] });
        },
      },
    },
    renderError: (ctx, out) => {
      html(ctx, settings.pages.error(String(out.error), out.error_description === undefined ? undefined : String(out.error_description)));
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => settings.interactionUrl(interaction.uid) },
    // Consent is the account's, per app, not the browser session's: a new session at the pages starts its own grant
    // with what the account allowed the app before (its own grant, so a sign-out or a code's reuse there ends no
    // other session's tokens); only what was never allowed is asked.
    loadExistingGrant: async (ctx): Promise<InstanceType<Provider['Grant']> | undefined> => {
      const { session, client, provider: engine } = ctx.oidc;
      const clientId = client?.clientId;
      if (session === undefined || clientId === undefined) return undefined;
      const grantId = (ctx.oidc.result as { consent?: { grantId?: string } } | undefined)?.consent?.grantId ?? session.grantIdFor(clientId);
      if (grantId) return engine.Grant.find(grantId);
      if (session.accountId === undefined) return undefined;
      const earlier = await grants.grantOf(session.accountId, clientId);
      if (earlier === undefined) return undefined;
      const grant = new engine.Grant({ accountId: session.accountId, clientId });
      Object.assign(grant, { openid: earlier['openid'], resources: earlier['resources'], rejected: earlier['rejected'] });
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx: unknown, sub: string) => {
      const claims = await accounts.claims(sub);
      return claims === null ? undefined : { accountId: sub, claims: () => ({ sub, ...claims }) };
    },
  });
  provider.proxy = true;
  // A sign-in at the pages ties the session at the pages to the API's session it opened (in the commit of the
  // engine's own resume, before the browser is sent on with a code).
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as Partial<KoaContextWithOIDC>).oidc;
    const opened = (oidc?.result as { opened?: OpenedSession } | undefined)?.opened;
    const session = oidc?.session;
    if (oidc?.route !== 'resume' || opened === undefined || session?.accountId !== opened.accountId || session.uid === undefined) return;
    await pagesSessions.upsert(session.uid, { accountId: opened.accountId, sessionId: opened.sessionId, amr: [...opened.amr], authTime: session.loginTs ?? null }, PAGES_SESSION_TTL);
  });
  const callback = provider.callback();
  const interactions: Interactions = {
    details: async (request, response) => {
      const interaction = await provider.interactionDetails(request, response);
      const clientId = textOf(interaction.params['client_id']);
      const client = await provider.Client.find(clientId);
      const metadata = (client?.metadata() ?? {}) as Record<string, unknown>;
      return {
        uid: interaction.uid,
        prompt: interaction.prompt.name,
        clientName: typeof metadata['client_name'] === 'string' ? metadata['client_name'] : clientId,
        firstParty: metadata['first_party'] === true,
        scopes: textOf(interaction.params['scope']).split(' ').filter((scope) => scope !== ''),
        resources: ([] as unknown[]).concat(interaction.params['resource'] ?? []).filter((resource): resource is string => typeof resource === 'string'),
        accountId: interaction.session?.accountId ?? null,
      };
    },
    signedIn: async (request, response, opened) => {
      const { accountId, amr } = opened;
      await provider.interactionFinished(request, response, { login: { accountId, amr: [...amr], acr: acrOf(amr) }, opened }, { mergeWithLastSubmission: false });
    },
    allowed: async (request, response) => {
      const interaction = await provider.interactionDetails(request, response);
      const accountId = interaction.session?.accountId;
      const clientId = textOf(interaction.params['client_id']);
      if (accountId === undefined) throw new errors.AccessDenied('nobody is signed in');
      const grant = (interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId)) ?? new provider.Grant({ accountId, clientId });
      const details = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
      if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
      if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
      const grantId = await grant.save();
      await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
    },
    denied: async (request, response) => {
      await provider.interactionFinished(request, response, { error: 'access_denied', error_description: 'The person refused' }, { mergeWithLastSubmission: false });
    },
  };
  return {
    interactions,
    handle: (request, response) => void callback(request, response),
    issuer: settings.issuer,
    clientStorage: new StoreOidcAdapter(store, 'Client', secrets, errors.InvalidGrant, accounts.epoch),
    validateClient: (metadata) => provider.Client.validate(metadata as never),
  };
}
