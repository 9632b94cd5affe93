import type { SocialSignInPorts } from '../../ports/social-sign-in-ports.js';
import { type HolderProof, missingProof, proveHolder } from '../../../policies/holder.js';
import { InvalidInput } from '../../../../domain/domain-error.js';
import { type FlowRequest, type FlowStarted, type OAuthPolicySettings, checkFlowRequest, startFlow } from '../../policies/oauth.js';
import type { MfaSettings } from '../../../policies/second-factor.js';
import type { SessionSettings } from '../../../policies/sessions.js';

export interface LinkIdentityCommand extends FlowRequest, HolderProof {}

/**
 * Starts linking a provider's identity to the caller's account (POST /auth/oauth/{provider}/link). A linked identity
 * is a way in, so the holder is proved as for any credential (proveHolder: a verified address, the step-up of an
 * account with a factor, the current password or, without one, a recent sign-in); the callback then links whatever
 * identity comes back to this account, whatever its address.
 */
export class LinkIdentityHandler {
  constructor(
    private readonly deps: Pick<SocialSignInPorts, 'mfa' | 'oauthFlows' | 'providers' | 'authenticators' | 'reauthentications' | 'users' | 'sessions' | 'events' | 'limits' | 'hasher' | 'clock' | 'ids'>,
    private readonly settings: { readonly oauth: OAuthPolicySettings; readonly sessions: SessionSettings; readonly mfa: MfaSettings },
  ) {}

  /**
   * Throws ProviderNotFound; InvalidInput (`redirect_to`, the challenge); then what proveHolder throws
   * (EmailNotVerified, StepUpRequired, RecentSignInRequired, InvalidInput on `currentpassword`), before any flow starts.
   */
  async execute(command: LinkIdentityCommand): Promise<FlowStarted> {
    let request;
    try {
      request = checkFlowRequest(this.deps, this.settings.oauth, command);
    } catch (error) {
      if (error instanceof InvalidInput) throw new InvalidInput([...error.issues, ...missingProof(command)]);
      throw error;
    }
    const user = await proveHolder(this.deps, this.settings, command, 'link-identity');
    return startFlow(this.deps, request, { userId: user.id, sessionId: command.principal.sessionId });
  }
}
