import type { PageRequest, RecordedEvent } from '../../application/ports/event-log.port.js';
import type { SessionPage, SessionRepository } from '../../application/ports/session-repository.port.js';
import type { Session } from '../../domain/session.js';
import { decodeSessionCursor, encodeSessionCursor } from '../cursor.js';
import { countOf } from './commit-plan.js';
import { ENDED_EPOCHS, SESSIONS, USERS, type UserRecord, sessionOf, sessionRecordOf } from './account-tables.js';
import { type Change, type Store, entryOf, expectThat, put, remove, sweepExpired } from './store.js';

const ALL = Number.MAX_SAFE_INTEGER;

/**
 * Sessions over the storage primitive, the same for every store. A save that leaves a session live holds only while
 * its account is still at the session's epoch (a refresh racing a sign-out of every session writes nothing).
 */
export class StoreSessionRepository implements SessionRepository {
  constructor(private readonly store: Store) {}

  async add(session: Session, events: readonly RecordedEvent[]): Promise<void> {
    const outcome = await this.store.commit({ changes: [put(SESSIONS, session.id, sessionRecordOf(session), null)], events });
    if (outcome.status !== 'committed') throw new Error(`session ${session.id} exists`);
  }

  async findById(id: string): Promise<Session | null> {
    const stored = await this.store.get(SESSIONS, id);
    return stored && sessionOf(stored);
  }

  async findByUser(userId: string, epoch: number): Promise<Session[]> {
    return (await this.store.range(SESSIONS, 'liveByCreation', { prefix: [userId, epoch], limit: ALL })).map(sessionOf);
  }

  async findPageByUser(userId: string, epoch: number, page: PageRequest): Promise<SessionPage> {
    const position = page.cursor === null ? null : decodeSessionCursor(page.cursor);
    const after = position && entryOf([userId, epoch, position.createdAt], position.id);
    const found = await this.store.range(SESSIONS, 'liveByCreation', { prefix: [userId, epoch], ...(after === null ? {} : { after }), limit: page.limit + 1, reverse: true });
    const shown = found.slice(0, page.limit).map(sessionOf);
    const last = shown.at(-1)?.snapshot();
    return { sessions: shown, nextCursor: found.length > page.limit && last ? encodeSessionCursor({ createdAt: last.createdAt.getTime(), id: last.id }) : null };
  }

  async leastRecentlyUsed(userId: string, epoch: number, keep: number, max: number): Promise<Session[]> {
    const beyond = Math.min((await countOf(this.store, SESSIONS, 'liveByUse', [userId, epoch])) - keep, max);
    if (beyond <= 0) return [];
    return (await this.store.range(SESSIONS, 'liveByUse', { prefix: [userId, epoch], limit: beyond })).map(sessionOf);
  }

  save(session: Session, events: readonly RecordedEvent[]): Promise<boolean> {
    return this.saveMany([session], events);
  }

  async saveMany(sessions: readonly Session[], events: readonly RecordedEvent[]): Promise<boolean> {
    if (sessions.length === 0 && events.length === 0) return true;
    const changes = sessions.flatMap((session): Change[] => {
      const { userId, epoch, revokedAt, version } = session.snapshot();
      const write = put(SESSIONS, session.id, sessionRecordOf(session), version);
      const inItsEpoch = (user: UserRecord | null) => user === null || (user.sessionEpoch ?? 0) === (epoch ?? 0);
      return revokedAt === null ? [write, expectThat(USERS, userId, inItsEpoch)] : [write];
    });
    return (await this.store.commit({ changes, events })).status === 'committed';
  }

  /** Sessions that ended (by `now`), then those of an epoch older than their account's, at most `limit` in all. */
  async removeExpired(now: Date, limit: number): Promise<number> {
    let removed = await sweepExpired(this.store, SESSIONS, now.getTime(), limit);
    for (const marker of await this.store.range(ENDED_EPOCHS, 'all', { prefix: [], limit: Math.max(0, limit - removed) })) {
      if (removed >= limit) break;
      const older = (await this.store.range(SESSIONS, 'liveByCreation', { prefix: [marker.value.userId], limit: limit - removed + 1 }))
        .filter((stored) => (stored.value.epoch ?? 0) < marker.value.epoch);
      const batch = older.slice(0, limit - removed);
      const done = older.length <= limit - removed;
      const changes = [...batch.map((stored) => remove(SESSIONS, stored.key, stored.version)), ...(done ? [remove(ENDED_EPOCHS, marker.key, marker.version)] : [])];
      if ((await this.store.commit({ changes })).status === 'committed') removed += batch.length;
    }
    return removed;
  }
}
