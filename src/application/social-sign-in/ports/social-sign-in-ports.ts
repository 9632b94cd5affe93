import type { Ports } from '../../ports/ports.js';
import type { IdentityProviders } from './identity-providers.port.js';
import type { IdentityRepository } from './identity-repository.port.js';
import type { OAuthFlowRepository } from './oauth-flow-repository.port.js';

/**
 * What social sign-in's use cases read: the core's ports and the capability's own (its manifest binds them: the
 * identities, the flows and their one-time codes, the providers).
 */
export interface SocialSignInPorts extends Ports {
  readonly identities: IdentityRepository;
  readonly oauthFlows: OAuthFlowRepository;
  readonly providers: IdentityProviders;
}
