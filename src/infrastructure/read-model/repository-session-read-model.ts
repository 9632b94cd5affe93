import type { PageRequest } from '../../application/ports/event-log.port.js';
import type { SessionReadModel, SessionView, SessionViewPage } from '../../application/ports/session-read-model.port.js';
import type { SessionRepository } from '../../application/ports/session-repository.port.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import type { Session } from '../../domain/session.js';

const viewOf = (session: Session): SessionView => {
  const { id, createdAt, lastUsedAt, expiresAt, clientIp, userAgent } = session.snapshot();
  return { id, createdAt, lastUsedAt, expiresAt, clientIp, userAgent };
};

/**
 * Live sessions read through the session and user repositories: works over every storage adapter. A session is live
 * only in its account's current session epoch, so each read takes the account's epoch first (one record). A session
 * record holds no secret (refresh tokens are derived, never stored), so this view reads nothing it does not show.
 */
export class RepositorySessionReadModel implements SessionReadModel {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly users: UserRepository,
  ) {}

  async liveSessionAccount(sessionId: string, userId: string, now: Date): Promise<{ readonly emailVerified: boolean } | null> {
    const [session, user] = await Promise.all([this.sessions.findById(sessionId), this.users.findById(userId)]);
    const live = session !== null && user !== null && session.userId === userId && session.isLive(now, user.sessionEpoch);
    return live ? { emailVerified: user.emailVerified } : null;
  }

  async page(userId: string, now: Date, page: PageRequest): Promise<SessionViewPage> {
    const epoch = await this.epochOf(userId);
    if (epoch === null) return { sessions: [], nextCursor: null };
    const { sessions, nextCursor } = await this.sessions.findPageByUser(userId, epoch, page);
    return { sessions: sessions.filter((session) => session.isLive(now, epoch)).map(viewOf), nextCursor };
  }

  async live(userId: string, now: Date): Promise<SessionView[]> {
    const epoch = await this.epochOf(userId);
    if (epoch === null) return [];
    const sessions = await this.sessions.findByUser(userId, epoch);
    return sessions
      .filter((session) => session.isLive(now, epoch))
      .map(viewOf)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  }

  private async epochOf(userId: string): Promise<number | null> {
    return (await this.users.findById(userId))?.sessionEpoch ?? null;
  }
}
