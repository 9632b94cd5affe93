import type { PageRequest } from '../../application/ports/event-log.port.js';
import type { SessionReadModel, SessionView, SessionViewPage } from '../../application/ports/session-read-model.port.js';
import type { SessionRepository } from '../../application/ports/session-repository.port.js';
import type { Session } from '../../domain/session.js';

const viewOf = (session: Session): SessionView => {
  const { id, createdAt, lastUsedAt, expiresAt, clientIp, userAgent } = session.snapshot();
  return { id, createdAt, lastUsedAt, expiresAt, clientIp, userAgent };
};

/**
 * Live sessions read through the session repository: works over every storage adapter. A session record holds no
 * secret (refresh tokens are derived, never stored), so this view reads nothing it does not show.
 */
export class RepositorySessionReadModel implements SessionReadModel {
  constructor(private readonly sessions: SessionRepository) {}

  async isLive(sessionId: string, userId: string, now: Date): Promise<boolean> {
    const session = await this.sessions.findById(sessionId);
    return session !== null && session.userId === userId && session.isLive(now);
  }

  async page(userId: string, now: Date, page: PageRequest): Promise<SessionViewPage> {
    const { sessions, nextCursor } = await this.sessions.findPageByUser(userId, page);
    return { sessions: sessions.filter((session) => session.isLive(now)).map(viewOf), nextCursor };
  }

  async live(userId: string, now: Date): Promise<SessionView[]> {
    const sessions = await this.sessions.findByUser(userId);
    return sessions
      .filter((session) => session.isLive(now))
      .map(viewOf)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  }
}
