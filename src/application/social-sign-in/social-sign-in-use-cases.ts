import type { Policies } from '../registry.js';
import type { OAuthPolicySettings } from './policies/oauth.js';
import type { SocialSignInPorts } from './ports/social-sign-in-ports.js';
import { BeginOAuthHandler } from './use-cases/begin-oauth/begin-oauth.handler.js';
import { CompleteOAuthHandler } from './use-cases/complete-oauth/complete-oauth.handler.js';
import { LinkIdentityHandler } from './use-cases/link-identity/link-identity.handler.js';
import { ListIdentitiesHandler } from './use-cases/list-identities/list-identities.handler.js';
import { ReauthenticateHandler } from './use-cases/reauthenticate/reauthenticate.handler.js';
import { RedeemOAuthCodeHandler } from './use-cases/redeem-oauth-code/redeem-oauth-code.handler.js';
import { UnlinkIdentityHandler } from './use-cases/unlink-identity/unlink-identity.handler.js';

export type { IdentityResource } from './use-cases/list-identities/list-identities.handler.js';
export type { OAuthPolicySettings } from './policies/oauth.js';
export { OAUTH_CODE_SECONDS, OAUTH_FLOW_SECONDS } from './ports/oauth-flow-repository.port.js';

/**
 * Social sign-in's use cases: a flow begun at a provider, its callback, the app's exchange of its one-time code, the
 * identities linked, listed and unlinked, and the provider re-authentication that proves a holder without a password.
 */
export const socialSignInUseCases = (ports: SocialSignInPorts, policies: Policies, oauth: OAuthPolicySettings) =>
  ({
    beginOauth: new BeginOAuthHandler(ports, oauth),
    linkIdentity: new LinkIdentityHandler(ports, { ...policies, oauth }),
    reauthenticate: new ReauthenticateHandler(ports, oauth),
    completeOauth: new CompleteOAuthHandler(ports, policies.mail.verificationPerAddress),
    redeemOauthCode: new RedeemOAuthCodeHandler(ports, policies.sessions, policies.mail.requireVerifiedEmail),
    listIdentities: new ListIdentitiesHandler(ports),
    unlinkIdentity: new UnlinkIdentityHandler(ports, policies.mfa),
  }) as const;

export type SocialSignInUseCases = ReturnType<typeof socialSignInUseCases>;
