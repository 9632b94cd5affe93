import type { PageRequest, RecordedEvent } from '../../application/ports/event-log.port.js';
import type { SessionPage, SessionRepository } from '../../application/ports/session-repository.port.js';
import { decodeSessionCursor, encodeSessionCursor, isAfter } from '../cursor.js';
import { Session, endOf } from '../../domain/session.js';
import type { InMemoryStore } from './in-memory-store.js';

/** Sessions in memory; each method checks and writes in one synchronous step (atomic on Node's one thread). */
export class InMemorySessionRepository implements SessionRepository {
  constructor(private readonly store: InMemoryStore) {}

  async add(session: Session, events: readonly RecordedEvent[]): Promise<void> {
    await Promise.resolve();
    const snapshot = session.snapshot();
    if (this.store.sessions.has(snapshot.id)) throw new Error(`session ${snapshot.id} exists`);
    this.store.putSession(snapshot);
    this.store.appendEvents(events);
  }

  async findById(id: string): Promise<Session | null> {
    const snapshot = await Promise.resolve(this.store.sessions.get(id));
    return snapshot ? Session.restore(structuredClone(snapshot)) : null;
  }

  async findByUser(userId: string, epoch: number): Promise<Session[]> {
    await Promise.resolve();
    return this.store.liveSessionsOf(userId, epoch).map((s) => Session.restore(structuredClone(s)));
  }

  async findPageByUser(userId: string, epoch: number, page: PageRequest): Promise<SessionPage> {
    await Promise.resolve();
    const after = page.cursor === null ? null : decodeSessionCursor(page.cursor);
    const newestFirst = this.store
      .liveSessionsOf(userId, epoch)
      .map((s) => ({ snapshot: s, position: { createdAt: s.createdAt.getTime(), id: s.id } }))
      .filter(({ position }) => isAfter(position, after))
      .sort((a, b) => b.position.createdAt - a.position.createdAt || (a.position.id < b.position.id ? 1 : -1));
    const shown = newestFirst.slice(0, page.limit);
    const last = shown.at(-1);
    return {
      sessions: shown.map(({ snapshot }) => Session.restore(structuredClone(snapshot))),
      nextCursor: newestFirst.length > page.limit && last ? encodeSessionCursor(last.position) : null,
    };
  }

  async leastRecentlyUsed(userId: string, epoch: number, keep: number, max: number): Promise<Session[]> {
    await Promise.resolve();
    const live = this.store.liveSessionsOf(userId, epoch).sort((a, b) => a.lastUsedAt.getTime() - b.lastUsedAt.getTime() || (a.id < b.id ? -1 : 1));
    return live.slice(0, Math.min(Math.max(0, live.length - keep), max)).map((s) => Session.restore(structuredClone(s)));
  }

  async save(session: Session, events: readonly RecordedEvent[]): Promise<boolean> {
    await Promise.resolve();
    const snapshot = session.snapshot();
    if (this.store.sessions.get(snapshot.id)?.version !== snapshot.version) return false;
    this.store.putSession({ ...snapshot, version: snapshot.version + 1 });
    this.store.appendEvents(events);
    return true;
  }

  async saveMany(sessions: readonly Session[], events: readonly RecordedEvent[]): Promise<boolean> {
    await Promise.resolve();
    const snapshots = sessions.map((session) => session.snapshot());
    if (snapshots.some((snapshot) => this.store.sessions.get(snapshot.id)?.version !== snapshot.version)) return false;
    for (const snapshot of snapshots) this.store.putSession({ ...snapshot, version: snapshot.version + 1 });
    this.store.appendEvents(events);
    return true;
  }

  async removeExpired(now: Date, limit: number): Promise<number> {
    await Promise.resolve();
    const expired = [...this.store.sessions.values()]
      .filter((s) => endOf(s).getTime() <= now.getTime())
      .sort((a, b) => endOf(a).getTime() - endOf(b).getTime())
      .slice(0, limit);
    const removed = [...expired, ...this.store.sessionsOfEndedEpochs(limit - expired.length)];
    for (const s of removed) this.store.deleteSession(s);
    return removed.length;
  }
}
