import type { PageRequest } from '../../application/ports/event-log.port.js';
import type { SessionReadModel, SessionView, SessionViewPage } from '../../application/ports/session-read-model.port.js';
import { endOf } from '../../domain/session.js';
import { decodeSessionCursor, encodeSessionCursor } from '../cursor.js';
import type { UserView } from '../../application/ports/user-read-model.port.js';
import { ACCOUNT_VIEWS, SESSIONS, type SessionRecord } from './account-tables.js';
import { userViewOf } from './store-user-read-model.js';
import { type Store, type Stored, entryOf } from './store.js';

const viewOf = ({ id, createdAt, lastUsedAt, expiresAt, clientIp, userAgent }: SessionRecord): SessionView => ({ id, createdAt, lastUsedAt, expiresAt, clientIp, userAgent });

const isLive = (session: SessionRecord, now: Date, epoch: number): boolean =>
  session.revokedAt === null && endOf(session).getTime() > now.getTime() && (session.epoch ?? 0) === epoch;

/**
 * Live sessions read from the query side's records: the account's view (its session epoch; no hash) and the session
 * records, which hold no secret either (refresh tokens are derived, never stored). Never reads an aggregate.
 */
export class StoreSessionReadModel implements SessionReadModel {
  constructor(private readonly store: Store) {}

  /** Two records read by key, at once: the session and its account's view. */
  async liveSessionAccount(sessionId: string, userId: string, now: Date): Promise<UserView | null> {
    const [session, account] = await Promise.all([this.store.get(SESSIONS, sessionId), this.store.get(ACCOUNT_VIEWS, userId)]);
    const live = session !== null && account !== null && session.value.userId === userId && isLive(session.value, now, account.value.sessionEpoch);
    return live ? userViewOf(userId, account.value) : null;
  }

  async page(userId: string, now: Date, page: PageRequest): Promise<SessionViewPage> {
    const position = page.cursor === null ? null : decodeSessionCursor(page.cursor);
    const epoch = await this.epochOf(userId);
    if (epoch === null) return { sessions: [], nextCursor: null };
    const after = position && entryOf([userId, epoch, position.createdAt], position.id);
    const found = await this.store.range(SESSIONS, 'liveByCreation', { prefix: [userId, epoch], ...(after === null ? {} : { after }), limit: page.limit + 1, reverse: true });
    const shown = found.slice(0, page.limit);
    const last = shown.at(-1)?.value;
    return {
      sessions: shown.filter((stored) => isLive(stored.value, now, epoch)).map((stored) => viewOf(stored.value)),
      nextCursor: found.length > page.limit && last ? encodeSessionCursor({ createdAt: last.createdAt.getTime(), id: last.id }) : null,
    };
  }

  async live(userId: string, now: Date): Promise<SessionView[]> {
    const epoch = await this.epochOf(userId);
    if (epoch === null) return [];
    const found: Stored<SessionRecord>[] = await this.store.range(SESSIONS, 'liveByCreation', { prefix: [userId, epoch], limit: Number.MAX_SAFE_INTEGER, reverse: true });
    return found.filter((stored) => isLive(stored.value, now, epoch)).map((stored) => viewOf(stored.value));
  }

  private async epochOf(userId: string): Promise<number | null> {
    return (await this.store.get(ACCOUNT_VIEWS, userId))?.value.sessionEpoch ?? null;
  }
}
