import { openedSessionOf } from '../application/shared/auth-result.js';
import { PORT_TOKENS } from '../application/ports/ports.js';
import { REAUTHENTICATIONS } from '../application/ports/reauthentications.port.js';
import { token } from '../application/di-token.js';
import { IDENTITY_PROVIDERS } from '../application/social-sign-in/ports/identity-providers.port.js';
import { SOCIAL_SIGN_IN } from '../application/social-sign-in/ports/social-sign-in.port.js';
import { allowedRedirect } from '../application/social-sign-in/policies/oauth.js';
import { IDENTITY_REPOSITORY } from '../application/social-sign-in/ports/identity-repository.port.js';
import { OAUTH_FLOW_REPOSITORY } from '../application/social-sign-in/ports/oauth-flow-repository.port.js';
import type { SocialSignInPorts } from '../application/social-sign-in/ports/social-sign-in-ports.js';
import { ProviderReauthentications } from '../application/social-sign-in/provider-reauthentications.js';
import { SOCIAL_SIGN_IN_EVENTS } from '../application/social-sign-in/events.js';
import { type SocialSignInUseCases, socialSignInUseCases } from '../application/social-sign-in/social-sign-in-use-cases.js';
import { type PortGetter, corePorts } from '../infrastructure/container/bind-port.js';
import { type Capability, derivedOf } from '../infrastructure/container/capability.js';
import { CONFIG, LOGGER, POLICIES, SCHEMA, SERVICE_SECRET, STORAGE } from '../infrastructure/container/tokens.js';
import { derivedKey } from '../infrastructure/security/hmac-refresh-tokens.js';
import { IDENTITIES } from '../infrastructure/social-sign-in/identity-tables.js';
import { OAUTH_CODES, OAUTH_FLOWS } from '../infrastructure/social-sign-in/oauth-tables.js';
import { OAUTH, OAUTH_VARIABLES } from '../infrastructure/social-sign-in/oauth-settings.js';
import { OpenIdIdentityProviders } from '../infrastructure/social-sign-in/providers/openid-identity-providers.js';
import { StoreIdentityRepository } from '../infrastructure/social-sign-in/store-identity.repository.js';
import { StoreOAuthFlowRepository } from '../infrastructure/social-sign-in/store-oauth-flow.repository.js';
import { SOCIAL_SIGN_IN_ERRORS } from '../interfaces/http/social-sign-in/errors.js';
import { SOCIAL_SIGN_IN_OPERATIONS } from '../interfaces/http/social-sign-in/index.js';

/** The use cases, made once in the container: the registry's and REAUTHENTICATIONS' share the ports. */
const SOCIAL_SIGN_IN_USE_CASES = token<SocialSignInUseCases>('SocialSignInUseCases');

/** Every port the use cases read: the core's, resolved by their tokens, and the capability's own. */
const portsOf = (get: PortGetter): SocialSignInPorts => ({
  ...corePorts(get),
  identities: get(IDENTITY_REPOSITORY),
  oauthFlows: get(OAUTH_FLOW_REPOSITORY),
  providers: get(IDENTITY_PROVIDERS),
});

/**
 * Social sign-in: an OpenID Connect provider or GitHub signs a person in (a new account, or the one its identity is
 * linked to), with the app's own PKCE and a one-time code; identities linked, listed and unlinked; a provider's
 * re-authentication proves the holder of an account without a password (the core's REAUTHENTICATIONS).
 */
export const socialSignIn: Capability<SocialSignInUseCases, (typeof SOCIAL_SIGN_IN_OPERATIONS)[number]> = {
  name: 'social-sign-in',
  squad: '@account-service/identity',
  folders: ['src/domain/social-sign-in', 'src/application/social-sign-in', 'src/infrastructure/social-sign-in', 'src/interfaces/http/social-sign-in'],
  tables: [IDENTITIES, OAUTH_FLOWS, OAUTH_CODES],
  events: SOCIAL_SIGN_IN_EVENTS,
  settings: OAUTH_VARIABLES,
  derived: OAUTH,
  errors: Object.fromEntries(Object.entries(SOCIAL_SIGN_IN_ERRORS).map(([code, row]) => [code, row.description])),
  operations: SOCIAL_SIGN_IN_OPERATIONS,
  bind: (bindPort) => {
    bindPort(IDENTITY_REPOSITORY, (get) => new StoreIdentityRepository(get(STORAGE).store, get(SCHEMA)));
    bindPort(OAUTH_FLOW_REPOSITORY, (get) => new StoreOAuthFlowRepository(get(STORAGE).store));
    bindPort(IDENTITY_PROVIDERS, (get) => new OpenIdIdentityProviders(derivedOf(get(CONFIG), OAUTH), derivedKey(get(SERVICE_SECRET), 'oauth-flow-v1'), get(LOGGER)));
    bindPort(REAUTHENTICATIONS, (get) => new ProviderReauthentications({ oauthFlows: get(OAUTH_FLOW_REPOSITORY), providers: get(IDENTITY_PROVIDERS), clock: get(PORT_TOKENS.clock) }));
    bindPort(SOCIAL_SIGN_IN_USE_CASES, (get) => socialSignInUseCases(portsOf(get), get(POLICIES), { redirectUrls: derivedOf(get(CONFIG), OAUTH).redirectUrls }));
    // Another capability's sign-in pages offer the providers and redeem a flow's code through the same use case.
    bindPort(SOCIAL_SIGN_IN, (get) => {
      const { providers, redirectUrls } = derivedOf(get(CONFIG), OAUTH);
      return {
        providers: providers.map(({ name }) => name),
        returnsTo: (url) => allowedRedirect(url, { redirectUrls }).ok,
        redeem: async (code, codeVerifier, metadata) => {
          const outcome = await get(SOCIAL_SIGN_IN_USE_CASES).redeemOauthCode.execute({ code, codeVerifier, metadata });
          return 'mfaToken' in outcome ? { mfaToken: outcome.mfaToken } : openedSessionOf(outcome);
        },
      };
    });
  },
  useCases: (get) => get(SOCIAL_SIGN_IN_USE_CASES),
  commands: [],
};
