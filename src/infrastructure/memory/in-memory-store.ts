import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { SessionSnapshot } from '../../domain/session.js';
import type { UserSnapshot } from '../../domain/user.js';
import type { OutboxEntry } from '../storage/outbox-entry.js';
import { type ProjectionTable, type ProjectionTables, applyProjections } from '../storage/projections.js';

/** A projection's table over a Map. */
const mapTable = <Row>(map: Map<string, Row>): ProjectionTable<Row, void> => ({
  insert: (key, row) => void map.set(key, row),
  update: (key, next) => void map.set(key, next(map.get(key))),
  remove: (key) => void map.delete(key),
});

/**
 * The state behind the in-memory adapters. Each adapter method does its check-and-write in one
 * synchronous step, which makes it atomic on Node's single thread, the same guarantee a transaction gives.
 */
export class InMemoryStore {
  readonly users = new Map<string, UserSnapshot>();
  readonly userIdsByEmail = new Map<string, string>();
  readonly events: RecordedEvent[] = [];
  readonly eventIds = new Set<string>();
  readonly sessions = new Map<string, SessionSnapshot>();
  /** Per user: the ids of its sessions that are not revoked (what per-account reads walk). */
  readonly liveSessionIdsByUser = new Map<string, Set<string>>();
  /** Mails not yet sent, by event id, in the order their events were appended. */
  readonly outbox = new Map<string, OutboxEntry>();
  private isClosed = false;

  get closed(): boolean {
    return this.isClosed;
  }

  /** Marks the store closed: its health check refuses from now on. Idempotent. */
  close(): Promise<void> {
    this.isClosed = true;
    return Promise.resolve();
  }

  private readonly projections: ProjectionTables<void> = {
    outbox: mapTable(this.outbox),
  };

  /** Stores a session's state (by copy), new or changed, and keeps the per-user index of those not revoked. */
  putSession(snapshot: SessionSnapshot): void {
    this.sessions.set(snapshot.id, structuredClone(snapshot));
    const live = this.liveSessionIdsByUser.get(snapshot.userId) ?? new Set<string>();
    if (snapshot.revokedAt === null) live.add(snapshot.id);
    else live.delete(snapshot.id);
    if (live.size > 0) this.liveSessionIdsByUser.set(snapshot.userId, live);
    else this.liveSessionIdsByUser.delete(snapshot.userId);
  }

  /** Forgets a session and its index entry. */
  deleteSession(snapshot: SessionSnapshot): void {
    this.sessions.delete(snapshot.id);
    const live = this.liveSessionIdsByUser.get(snapshot.userId);
    live?.delete(snapshot.id);
    if (live?.size === 0) this.liveSessionIdsByUser.delete(snapshot.userId);
  }

  /**
   * The snapshots of the user's sessions that are not revoked, of session epoch `epoch` (by reference: copy before
   * handing out); every epoch when `epoch` is undefined.
   */
  liveSessionsOf(userId: string, epoch?: number): SessionSnapshot[] {
    return [...(this.liveSessionIdsByUser.get(userId) ?? [])].flatMap((id) => {
      const snapshot = this.sessions.get(id);
      return snapshot && (epoch === undefined || (snapshot.epoch ?? 0) === epoch) ? [snapshot] : [];
    });
  }

  /** Sessions not revoked of an epoch older than their account's (ended all at once), at most `limit`. */
  sessionsOfEndedEpochs(limit: number): SessionSnapshot[] {
    const ended: SessionSnapshot[] = [];
    for (const [userId] of this.liveSessionIdsByUser) {
      const epoch = this.users.get(userId)?.sessionEpoch ?? 0;
      for (const snapshot of this.liveSessionsOf(userId)) {
        if (ended.length >= limit) return ended;
        if ((snapshot.epoch ?? 0) < epoch) ended.push(snapshot);
      }
    }
    return ended;
  }

  /** Appends events (an eventId already stored is skipped) and applies every projection to each new one, in one step. */
  appendEvents(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (this.eventIds.has(event.eventId)) continue;
      this.eventIds.add(event.eventId);
      this.events.push(structuredClone(event));
      applyProjections(event, this.projections);
    }
  }
}
