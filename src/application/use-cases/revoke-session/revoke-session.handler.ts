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

/** Signs one of the caller's devices out by session id. */
export class RevokeSessionHandler {
  constructor(private readonly deps: Pick<Ports, 'users' | 'sessions' | 'clock' | 'ids'>) {}

  /** Throws SessionNotFound unless the id is one of the caller's live sessions (another account's looks the same). */
  async execute(command: RevokeSessionCommand): Promise<void> {
    const [session, user] = await Promise.all([this.deps.sessions.findById(command.sessionId), this.deps.users.findById(command.principal.userId)]);
    if (!session || !user || session.userId !== user.id || !session.isLive(this.deps.clock.now(), user.sessionEpoch)) throw new SessionNotFound();
    await revokeSession(this.deps, session, 'revoked', command.metadata);
  }
}
