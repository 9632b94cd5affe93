import { SessionNotFound } from '../../errors.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { revokeSession } from '../../policies/sessions.js';
import type { Principal } from '../../shared/principal.js';

export interface RevokeSessionCommand {
  readonly principal: Principal;
  readonly sessionId: string;
  readonly metadata: RequestMetadata;
}

/** Signs one of the caller's devices out by session id. Of the account it reads the view (its session epoch), not the aggregate. */
export class RevokeSessionHandler {
  constructor(private readonly deps: Pick<Ports, 'userViews' | 'sessions' | 'clock' | 'ids'>) {}

  /** Throws SessionNotFound unless the id is one of the caller's live sessions (another account's looks the same). */
  async execute(command: RevokeSessionCommand): Promise<void> {
    const { userId } = command.principal;
    const [session, account] = await Promise.all([this.deps.sessions.findById(command.sessionId), this.deps.userViews.sessionAccountOf(userId)]);
    if (!session || !account || session.userId !== userId || !session.isLive(this.deps.clock.now(), account.sessionEpoch)) throw new SessionNotFound();
    await revokeSession(this.deps, session, 'revoked', command.metadata);
  }
}
