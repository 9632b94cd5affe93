import type { SocialSignInPorts } from '../../ports/social-sign-in-ports.js';
import { type FlowRequest, type FlowStarted, type OAuthPolicySettings, checkFlowRequest, startFlow } from '../../policies/oauth.js';

/**
 * Starts a sign-in at an identity provider (GET /auth/oauth/{provider}/authorize): the app brings its own PKCE
 * challenge and the URL it wants back; the answer is where to send the browser.
 */
export class BeginOAuthHandler {
  constructor(
    private readonly deps: Pick<SocialSignInPorts, 'providers' | 'oauthFlows' | 'clock'>,
    private readonly settings: OAuthPolicySettings,
  ) {}

  /** Throws ProviderNotFound, or InvalidInput on `redirect_to`, `code_challenge` and `code_challenge_method` together. */
  async execute(request: FlowRequest): Promise<FlowStarted> {
    return startFlow(this.deps, checkFlowRequest(this.deps, this.settings, request), null);
  }
}
