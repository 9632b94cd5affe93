import { SessionNotFound } from '../../errors.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { type MfaSettings, requireStepUp } from '../../policies/second-factor.js';
import { revokeSession } from '../../policies/sessions.js';
import type { Principal } from '../../shared/principal.js';

export interface RevokeSessionCommand {
  readonly principal: Principal;
  readonly sessionId: string;
  readonly metadata: RequestMetadata;
}

/**
 * Signs one of the caller's devices out by session id. Ending another session than the caller's own needs a step-up
 * on an account with a second factor, as sign-out `others` and `global` do. Of the account it reads the view (its
 * session epoch), not the aggregate.
 */
export class RevokeSessionHandler {
  constructor(
    private readonly deps: Pick<Ports, 'mfa' | 'userViews' | 'sessions' | 'clock' | 'ids'>,
    private readonly mfa: MfaSettings,
  ) {}

  /** Throws StepUpRequired, or SessionNotFound unless the id is one of the caller's live sessions (another account's looks the same). */
  async execute(command: RevokeSessionCommand): Promise<void> {
    const { userId } = command.principal;
    if (command.sessionId !== command.principal.sessionId) await requireStepUp(this.deps, this.mfa, command.principal);
    const [session, account] = await Promise.all([this.deps.sessions.findById(command.sessionId), this.deps.userViews.sessionAccountOf(userId)]);
    if (!session || !account || session.userId !== userId || !session.isLive(this.deps.clock.now(), account.sessionEpoch)) throw new SessionNotFound();
    await revokeSession(this.deps, session, 'revoked', command.metadata);
  }
}
