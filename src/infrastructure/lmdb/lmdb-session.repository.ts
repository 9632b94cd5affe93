import type { PageRequest, RecordedEvent } from '../../application/ports/event-log.port.js';
import type { SessionPage, SessionRepository } from '../../application/ports/session-repository.port.js';
import { decodeSessionCursor, encodeSessionCursor, isAfter } from '../cursor.js';
import { Session } from '../../domain/session.js';
import { type StoredSession, epochRange, toStoredSession } from './lmdb-session-table.js';
import type { LmdbStore } from './lmdb-store.js';

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

const fromStored = (s: StoredSession): Session =>
  Session.restore({
    ...s,
    createdAt: new Date(s.createdAt),
    lastUsedAt: new Date(s.lastUsedAt),
    absoluteExpiresAt: new Date(s.absoluteExpiresAt),
    expiresAt: new Date(s.expiresAt),
    rotatedAt: date(s.rotatedAt),
    revokedAt: date(s.revokedAt),
  });

/**
 * Sessions in the LMDB environment, indexed per user (those not revoked, by creation and by last use) and by when
 * they end (revoked ones at their revocation, so the sweep takes them at once); a save is a compare-and-swap on `version`
 * inside the write transaction that also appends the events (LMDB has one writer at a time).
 */
export class LmdbSessionRepository implements SessionRepository {
  constructor(private readonly store: LmdbStore) {}

  async add(session: Session, events: readonly RecordedEvent[]): Promise<void> {
    const stored = toStoredSession(session.snapshot(), session.snapshot().version);
    const added = await this.store.transaction(() => {
      if (this.store.sessions.doesExist(stored.id)) return false;
      this.store.sessionTable.put(stored);
      this.store.appendEventsInTransaction(events);
      return true;
    });
    if (!added) throw new Error(`session ${stored.id} exists`);
  }

  async findById(id: string): Promise<Session | null> {
    const stored = await Promise.resolve(this.store.sessions.get(id));
    return stored ? fromStored(stored) : null;
  }

  async findByUser(userId: string, epoch: number): Promise<Session[]> {
    const keys = this.store.sessionTable.liveByUser.getKeys(epochRange(userId, epoch));
    return Promise.resolve([...keys].flatMap(([, , , id]) => {
      const stored = this.store.sessions.get(id);
      return stored ? [fromStored(stored)] : [];
    }));
  }

  async findPageByUser(userId: string, epoch: number, page: PageRequest): Promise<SessionPage> {
    const after = page.cursor === null ? null : decodeSessionCursor(page.cursor);
    const start = after === null ? [userId, epoch, Number.MAX_SAFE_INTEGER] : [userId, epoch, after.createdAt, after.id];
    const keys = [...this.store.sessionTable.liveByUser.getKeys({ start, end: [userId, epoch, -1], reverse: true, limit: page.limit + 2 })]
      .map(([, , createdAt, id]) => ({ createdAt, id }))
      .filter((position) => isAfter(position, after))
      .slice(0, page.limit + 1);
    const shown = keys.slice(0, page.limit);
    const last = shown.at(-1);
    return Promise.resolve({
      sessions: shown.flatMap(({ id }) => {
        const stored = this.store.sessions.get(id);
        return stored ? [fromStored(stored)] : [];
      }),
      nextCursor: keys.length > page.limit && last ? encodeSessionCursor(last) : null,
    });
  }

  async leastRecentlyUsed(userId: string, epoch: number, keep: number, max: number): Promise<Session[]> {
    const beyond = Math.min(this.store.sessionTable.liveByUse.getKeysCount(epochRange(userId, epoch)) - keep, max);
    if (beyond <= 0) return Promise.resolve([]);
    const keys = [...this.store.sessionTable.liveByUse.getKeys({ ...epochRange(userId, epoch), limit: beyond })];
    return Promise.resolve(keys.flatMap(([, , , id]) => {
      const stored = this.store.sessions.get(id);
      return stored ? [fromStored(stored)] : [];
    }));
  }

  async save(session: Session, events: readonly RecordedEvent[]): Promise<boolean> {
    const snapshot = session.snapshot();
    return this.store.transaction(() => {
      if (!this.store.sessionTable.swap([snapshot])) return false;
      this.store.appendEventsInTransaction(events);
      return true;
    });
  }

  async saveMany(sessions: readonly Session[], events: readonly RecordedEvent[]): Promise<boolean> {
    if (sessions.length === 0 && events.length === 0) return true;
    const snapshots = sessions.map((session) => session.snapshot());
    return this.store.transaction(() => {
      if (!this.store.sessionTable.swap(snapshots)) return false;
      this.store.appendEventsInTransaction(events);
      return true;
    });
  }

  async removeExpired(now: Date, limit: number): Promise<number> {
    const table = this.store.sessionTable;
    const due = [...table.byEnd.getKeys({ start: [0, ''], end: [now.getTime() + 1, ''], limit })];
    const accounts = [...table.endedEpochs.getKeys({ limit: Math.max(0, limit - due.length) })];
    if (due.length === 0 && accounts.length === 0) return 0;
    return this.store.transaction(() => {
      let removed = 0;
      for (const [endsAt, id] of due) {
        const current = this.store.sessions.get(id);
        void table.byEnd.remove([endsAt, id]);
        if (!current || table.endKeyOf(current)[0] !== endsAt) continue;
        table.remove(current);
        removed += 1;
      }
      for (const userId of accounts) {
        if (removed >= limit) break;
        removed += table.removeEndedEpochs(userId, this.store.users.get(userId)?.sessionEpoch ?? 0, limit - removed);
      }
      return removed;
    });
  }
}
