import { openedSessionOf } from '../application/shared/auth-result.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PORT_TOKENS } from '../application/ports/ports.js';
import { type Token, token } from '../application/di-token.js';
import { OIDC_CLIENTS as OIDC_CLIENTS_PORT } from '../application/oidc-provider/ports/oidc-clients.port.js';
import { type OidcProviderUseCases, oidcProviderUseCases } from '../application/oidc-provider/oidc-provider-use-cases.js';
import { type Capability, type RawRoute, defineCommand } from '../infrastructure/container/capability.js';
import type { PortGetter } from '../infrastructure/container/bind-port.js';
import { StoreOidcClients } from '../infrastructure/oidc-provider/store-oidc-clients.js';
import { CONFIG, SIGNING_KEY, STABLE_SECRET, STORAGE, USE_CASES } from '../infrastructure/container/tokens.js';
import { type PageRequest, type PasskeyStep, type PasswordSignIn, type SecondFactorStep, type SocialStep, interactionPages } from '../interfaces/http/oidc-provider/interaction-pages.js';
import { enginePagesOf } from '../interfaces/http/oidc-provider/engine-pages.js';
import { type PageKit, pageKit } from '../interfaces/http/shared/page-kit.js';
import { PASSKEY_SCRIPT } from '../interfaces/http/oidc-provider/passkey-script.js';
import { PASSKEY_SIGN_IN } from '../application/passkeys/ports/passkey-sign-in.port.js';
import { SOCIAL_SIGN_IN } from '../application/social-sign-in/ports/social-sign-in.port.js';
import { OIDC_SETTINGS, OIDC_VARIABLES } from '../infrastructure/oidc-provider/oidc-settings.js';
import { derivedOf } from '../infrastructure/container/capability.js';
import { SECOND_FACTOR_SIGN_IN } from '../application/second-factor/ports/second-factor-sign-in.port.js';
import { PASSWORD_HELP } from '../application/account-console/ports/password-help.port.js';
import { OIDC_ACCOUNT_STATE, OIDC_CLIENTS, OIDC_STATE } from '../infrastructure/oidc-provider/oidc-tables.js';
import { OIDC_PREFIX, OIDC_ROUTES, type OpenIdProvider, openIdProvider } from '../infrastructure/oidc-provider/openid-provider.js';
import { derivedKey } from '../infrastructure/security/hmac-refresh-tokens.js';

/** The engine, made once in the container. */
const OPENID_PROVIDER = token<OpenIdProvider>('OpenIdProvider');
/** The pages' look and policy, from the branding settings. */
const PAGE_KIT = token<PageKit>('OidcPageKit');
/** Where a social sign-in started at the pages comes back to: add `{issuer}/oidc/social-return` to OAUTH_REDIRECT_URLS. */
const SOCIAL_RETURN_PATH = `${OIDC_PREFIX}/social-return`;
/** Where the passkey button's script is served (the service's own origin: `script-src 'self'`). */
const PASSKEY_SCRIPT_PATH = `${OIDC_PREFIX}/assets/passkey.js`;

/** A port of another capability, or null when the service was composed without it. */
const optional = <T>(get: PortGetter, port: Token<T>): T | null => {
  try {
    return get(port);
  } catch {
    return null;
  }
};
const command = defineCommand<OidcProviderUseCases>();

const DISCOVERY = '/.well-known/openid-configuration';

/** RFC 8414's document is the provider's own discovery document, at its own path (the same issuer, the same endpoints). */
const asDiscovery =
  (handle: RawRoute['handle']): RawRoute['handle'] =>
  (request, response, context) => {
    request.url = DISCOVERY;
    return handle(request, response, context);
  };

/**
 * The service as an OpenID Provider (issue 64): other apps sign people in through it (authorization code with PKCE,
 * refresh, PAR, the device flow, DPoP), its ID tokens signed with the service's key, its state in the project's store.
 * Served on raw routes: the engine (oidc-provider) parses and answers its own protocol.
 */
export const oidcProvider: Capability<OidcProviderUseCases> = {
  name: 'oidc-provider',
  squad: '@account-service/identity',
  folders: ['src/application/oidc-provider', 'src/infrastructure/oidc-provider', 'src/interfaces/http/oidc-provider'],
  tables: [OIDC_ACCOUNT_STATE, OIDC_STATE, OIDC_CLIENTS],
  events: {},
  settings: OIDC_VARIABLES,
  derived: OIDC_SETTINGS,
  errors: { CLIENT_NOT_FOUND: 'no app is registered with this id: answered by `npm run admin -- remove-client` only' },
  bind: (bindPort) => {
    bindPort(OIDC_CLIENTS_PORT, (get) => {
      const { clientStorage, validateClient } = get(OPENID_PROVIDER);
      return new StoreOidcClients(get(STORAGE).store, clientStorage, validateClient);
    });
    bindPort(PAGE_KIT, (get) => pageKit(get(CONFIG).pages));
    bindPort(OPENID_PROVIDER, (get) => {
      const config = get(CONFIG);
      const issuer = config.publicApiUrl ?? `http://localhost:${config.http.port}`;
      const secret = get(STABLE_SECRET);
      const userViews = get(PORT_TOKENS.userViews);
      const sessionViews = get(PORT_TOKENS.sessionViews);
      const clock = get(PORT_TOKENS.clock);
      return openIdProvider(
        get(STORAGE).store,
        {
          issuer,
          signingKey: get(SIGNING_KEY),
          cookieKeys: [derivedKey(secret, 'oidc-cookies-v1').toString('base64url')],
          clientSecretKey: derivedKey(secret, 'oidc-client-secret-v1'),
          interactionUrl: (uid) => `${OIDC_PREFIX}/interaction/${uid}`,
          pages: enginePagesOf(get(PAGE_KIT)),
          resources: derivedOf(config, OIDC_SETTINGS).resources,
          registration: derivedOf(config, OIDC_SETTINGS).registrationsPerHour !== null,
          secure: issuer.startsWith('https:'),
          api: { issuer: config.jwt.issuer, audience: config.jwt.audience, ttlSeconds: config.jwt.ttlSeconds },
        },
        // One account, one truth: a deleted or disabled account is no account to the provider (no code, no userinfo),
        // and what ends its sessions (its epoch moves) ends what the provider holds of it (docs/oidc-provider.md).
        {
          claims: async (accountId) => {
            const account = await userViews.sessionAccountOf(accountId);
            if (!account || account.disabled) return null;
            const { user } = account;
            return { email: user.email, email_verified: user.emailverified, given_name: user.name, family_name: user.lastname, name: `${user.name} ${user.lastname}` };
          },
          sessionLive: async (accountId, sessionId) => (await sessionViews.liveSessionAccount(sessionId, accountId, clock.now())) !== null,
          epoch: async (accountId) => {
            const account = await userViews.sessionAccountOf(accountId);
            return account && !account.disabled ? account.sessionEpoch : null;
          },
        },
      );
    });
  },
  useCases: (get) => oidcProviderUseCases({ clients: get(OIDC_CLIENTS_PORT), clock: get(PORT_TOKENS.clock) }),
  commands: [
    command({
      name: 'create-client',
      summary: 'register an app that signs people in through the provider; prints its client_id and, unless --public, its client_secret (once)',
      options: {
        name: { value: 'NAME', required: true, description: "the app's name, shown to the people it asks to sign in" },
        redirectUri: { value: 'URI', required: true, repeatable: true, description: 'where the provider may send a code back, matched exactly; repeat for several' },
        postLogoutRedirectUri: { value: 'URI', repeatable: true, description: 'where the provider may send the browser after a sign-out the app asked for' },
        public: { description: 'a public client (single-page, mobile or command-line app): no secret, PKCE alone' },
        firstParty: { description: "an app of the service's own: no consent is asked" },
        grant: { value: 'GRANT', repeatable: true, choices: ['device'], description: 'also the device flow (RFC 8628): device' },
      },
      run: async ({ createClient }, input) => {
        const registered = await createClient.execute({
          name: input.name,
          redirectUris: input.redirectUri,
          postLogoutRedirectUris: input.postLogoutRedirectUri,
          public: input.public,
          firstParty: input.firstParty,
          deviceGrant: input.grant.includes('device'),
        });
        return { out: registered, ...(registered.client_secret === undefined ? {} : { notice: 'Keep the client_secret now: it is shown this once.' }) };
      },
    }),
    command({
      name: 'list-clients',
      summary: 'every registered app, oldest first; never a secret',
      run: async ({ listClients }) => ({ out: await listClients.execute() }),
    }),
    command({
      name: 'remove-client',
      summary: 'remove an app: its codes and tokens stop working; prints {"removed": id}',
      arguments: [{ name: 'id', description: "the app's client_id (list-clients shows it)" }],
      run: async ({ removeClient }, { id }) => ({ out: await removeClient.execute(id) }),
    }),
  ],
  rawRoutes: (get): RawRoute[] => {
    const { handle: engine, interactions, issuer } = get(OPENID_PROVIDER);
    // An https issuer answers over https only (its cookies are Secure): a request that reached it over plain http (a
    // proxy that does not say X-Forwarded-Proto, TRUST_PROXY unset) is told where the provider is, never a 500.
    const httpsOnly =
      (route: RawRoute['handle']): RawRoute['handle'] =>
      (request, response, context) => {
        if (!issuer.startsWith('https:') || context.https) return route(request, response, context);
        response.statusCode = 421;
        response.setHeader('content-type', 'text/plain; charset=utf-8');
        response.end(`The sign-in service answers at ${issuer} over HTTPS only (behind a proxy: set TRUST_PROXY, and X-Forwarded-Proto at the proxy).`);
      };
    const handle = httpsOnly((request, response) => engine(request, response));
    const useCases = get(USE_CASES);
    const metadataOf = ({ requestId, clientIp, userAgent }: PageRequest) => ({ requestId, clientIp, userAgent });
    const codeOf = (error: unknown): unknown => (error as { code?: unknown }).code;
    // A sign-in at the pages is the service's own sign-in (its throttle, no enumeration, its notices and events).
    const signIn: PasswordSignIn = async (email, password, request) => {
      try {
        const outcome = await useCases.signIn.execute({ email, password, metadata: metadataOf(request) });
        return 'mfaToken' in outcome ? { mfaToken: outcome.mfaToken } : openedSessionOf(outcome);
      } catch (error) {
        if (codeOf(error) === 'TOO_MANY_ATTEMPTS') return 'throttled';
        if (['INVALID_CREDENTIALS', 'INVALID_INPUT'].includes(String(codeOf(error)))) return 'refused';
        throw error;
      }
    };
    // Its second factor is the second-factor capability's (a service composed without it has no account with one).
    const secondFactors = optional(get, SECOND_FACTOR_SIGN_IN);
    const secondFactor: SecondFactorStep = async (mfaToken, code, request) => {
      if (secondFactors === null) return 'ended';
      try {
        return await secondFactors.complete({ mfaToken, code, metadata: metadataOf(request) });
      } catch (error) {
        if (['INVALID_MFA_CODE', 'INVALID_INPUT'].includes(String(codeOf(error)))) return 'wrong';
        if (['INVALID_MFA_TOKEN', 'TOO_MANY_ATTEMPTS'].includes(String(codeOf(error)))) return 'ended';
        throw error;
      }
    };
    // Passkeys sign in at the pages where the passkeys capability is composed and the pages' origin is one of its own.
    const passkeys = optional(get, PASSKEY_SIGN_IN);
    const passkeyStep: PasskeyStep = async (response, request) => {
      try {
        return await (passkeys as NonNullable<typeof passkeys>).complete(response, metadataOf(request));
      } catch (error) {
        if (['PASSKEY_REJECTED', 'INVALID_INPUT'].includes(String(codeOf(error)))) return 'refused';
        throw error;
      }
    };
    // Social sign-in at the pages where the social capability is composed and its flows may come back to them.
    const socials = optional(get, SOCIAL_SIGN_IN);
    const socialReturn = `${issuer}${SOCIAL_RETURN_PATH}`;
    const social: SocialStep | null =
      socials === null || socials.providers.length === 0 || !socials.returnsTo(socialReturn)
        ? null
        : {
            providers: socials.providers,
            returnUrl: socialReturn,
            redeem: async (code, verifier, request) => {
              try {
                return await socials.redeem(code, verifier, metadataOf(request));
              } catch (error) {
                if (['INVALID_INPUT', 'EMAIL_NOT_VERIFIED'].includes(String(codeOf(error)))) return 'refused';
                throw error;
              }
            },
          };
    // A flow comes back here (`?uid=…&code=…`) and goes on at its interaction, where the interaction's cookie is.
    const returned: RawRoute['handle'] = (request, response) => {
      const query = new URL(request.url ?? '/', 'http://return').searchParams;
      const uid = query.get('uid') ?? '';
      query.delete('uid');
      response.setHeader('cache-control', 'no-store');
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(uid)) {
        response.statusCode = 400;
        response.setHeader('content-type', 'text/plain; charset=utf-8');
        return void response.end('This sign-in cannot go on: go back to the app you came from and try again.');
      }
      response.statusCode = 303;
      response.setHeader('location', `${OIDC_PREFIX}/interaction/${uid}/social-done?${query.toString()}`);
      response.end();
    };
    const served = passkeys !== null && passkeys.origins.includes(new URL(issuer).origin);
    const pages = interactionPages({
      steps: interactions,
      signIn,
      secondFactor,
      social,
      passkey: served ? { step: passkeyStep, script: PASSKEY_SCRIPT_PATH, options: '/auth/passkeys/authentication-options' } : null,
      forgotPassword: optional(get, PASSWORD_HELP)?.path ?? null,
      csrfKey: derivedKey(get(STABLE_SECRET), 'oidc-pages-csrf-v1'),
      prefix: OIDC_PREFIX,
      kit: get(PAGE_KIT),
    });
    // Apps that register themselves (OIDC_DYNAMIC_REGISTRATION) are counted per address, in the store, across instances.
    const { registrationsPerHour } = derivedOf(get(CONFIG), OIDC_SETTINGS);
    const limits = get(PORT_TOKENS.limits);
    const clock = get(PORT_TOKENS.clock);
    const register: RawRoute['handle'] = async (request, response, { clientIp, ...rest }) => {
      const answer = (status: number, body: Record<string, string>, retryAfter?: number) => {
        response.statusCode = status;
        response.setHeader('content-type', 'application/json; charset=utf-8');
        response.setHeader('cache-control', 'no-store');
        if (retryAfter !== undefined) response.setHeader('retry-after', String(retryAfter));
        response.end(JSON.stringify(body));
      };
      const at = clock.now();
      let reached;
      try {
        reached = await limits.take({ key: `oidc-registration:${clientIp}`, max: registrationsPerHour ?? 1, windowSeconds: 3600 }, at);
      } catch {
        return answer(503, { error: 'temporarily_unavailable', error_description: 'The store cannot be reached: try again shortly' }, 5);
      }
      if (reached !== null) {
        return answer(429, { error: 'too_many_requests', error_description: 'Too many registrations from this address: try again later' }, Math.max(1, Math.ceil((reached.retryAt.getTime() - at.getTime()) / 1000)));
      }
      return handle(request, response, { clientIp, ...rest });
    };
    const script = (_request: IncomingMessage, response: ServerResponse): void => {
      response.setHeader('content-type', 'text/javascript; charset=utf-8');
      response.setHeader('cache-control', 'public, max-age=3600');
      response.end(PASSKEY_SCRIPT);
    };
    return [
      { methods: ['GET', 'POST'], path: `${OIDC_PREFIX}/interaction/*`, handle: httpsOnly(pages) },
      { methods: ['GET'], path: PASSKEY_SCRIPT_PATH, handle: script },
      { methods: ['GET'], path: SOCIAL_RETURN_PATH, handle: httpsOnly(returned) },
      ...(registrationsPerHour === null ? [] : [{ methods: ['POST'] as const, path: OIDC_ROUTES.registration, handle: register }]),
      { methods: ['GET', 'POST', 'OPTIONS'], path: `${OIDC_PREFIX}/*`, handle },
      { methods: ['GET', 'OPTIONS'], path: DISCOVERY, handle },
      { methods: ['GET', 'OPTIONS'], path: '/.well-known/oauth-authorization-server', handle: asDiscovery(handle) },
    ];
  },
};
