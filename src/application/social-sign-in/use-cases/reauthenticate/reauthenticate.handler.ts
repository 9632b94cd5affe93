import { type FieldIssue, InvalidInput } from '../../../../domain/domain-error.js';
import { REAUTH_ACTIONS, type ReauthAction } from '../../../ports/reauthentications.port.js';
import type { SocialSignInPorts } from '../../ports/social-sign-in-ports.js';
import { type FlowRequest, type FlowStarted, type OAuthPolicySettings, checkFlowRequest, startFlow } from '../../policies/oauth.js';
import type { Principal } from '../../../shared/principal.js';

export interface ReauthenticateCommand extends FlowRequest {
  readonly principal: Principal;
  /** What the proof is for: one of REAUTH_ACTIONS (the code it ends in serves that action only). */
  readonly action: unknown;
}

const isAction = (value: unknown): value is ReauthAction => (REAUTH_ACTIONS as readonly unknown[]).includes(value);

/**
 * Starts a re-authentication at a provider (POST /auth/oauth/{provider}/reauthenticate): how the holder of an account
 * without a password proves themselves for one action. The provider is asked for a new sign-in (`prompt=login`,
 * `max_age=0`); the callback accepts only an identity linked to the caller's account, signed in since the flow began,
 * and answers the app a one-time code bound to its PKCE challenge, this session and `action`, which the action's
 * request then carries (`oauthcode`, `code_verifier`). Nothing is signed in or linked.
 */
export class ReauthenticateHandler {
  constructor(
    private readonly deps: Pick<SocialSignInPorts, 'providers' | 'oauthFlows' | 'clock'>,
    private readonly settings: OAuthPolicySettings,
  ) {}

  /** Throws ProviderNotFound, or InvalidInput on `redirect_to`, the challenge and `action` together. */
  async execute(command: ReauthenticateCommand): Promise<FlowStarted> {
    const action = isAction(command.action) ? command.action : null;
    let request;
    try {
      request = checkFlowRequest(this.deps, this.settings, command);
    } catch (error) {
      if (action === null && error instanceof InvalidInput) throw new InvalidInput([...error.issues, actionIssue]);
      throw error;
    }
    if (action === null) throw new InvalidInput([actionIssue]);
    const { userId, sessionId } = command.principal;
    return startFlow(this.deps, request, { userId, sessionId }, { action });
  }
}

const actionIssue: FieldIssue = { field: 'action', code: 'NOT_ONE_OF', message: `must be one of ${REAUTH_ACTIONS.join(', ')}` };
