import type { ClientSession } from 'mongodb';
import type { PageRequest, RecordedEvent } from '../../application/ports/event-log.port.js';
import type { SessionPage, SessionRepository } from '../../application/ports/session-repository.port.js';
import { decodeSessionCursor, encodeSessionCursor } from '../cursor.js';
import type { Session } from '../../domain/session.js';
import { fromSessionDocument as fromDocument, ofEpoch, toSessionDocument as toDocument } from './mongo-documents.js';
import { translated } from './mongo-errors.js';
import type { MongoStore } from './mongo-store.js';

/** Thrown inside a transaction to abort it when one of the sessions it swaps changed meanwhile (caught by its caller). */
export class StaleSessions extends Error {}

/**
 * Compare-and-swap of sessions inside the transaction `tx`, in one bulkWrite: stores each at its version + 1 where the
 * stored version is still its own; throws StaleSessions, so that the caller aborts the whole transaction, otherwise.
 */
export async function swapSessionsInTransaction(store: MongoStore, sessions: readonly Session[], tx: ClientSession): Promise<void> {
  if (sessions.length === 0) return;
  const replacements = sessions.map((session) => {
    const snapshot = session.snapshot();
    const { _id, ...next } = toDocument(snapshot, snapshot.version + 1);
    return { replaceOne: { filter: { _id, version: snapshot.version }, replacement: next } };
  });
  const swapped = await store.sessions.bulkWrite(replacements, { session: tx, ordered: true });
  if (swapped.matchedCount !== replacements.length) throw new StaleSessions();
}

/**
 * Sessions in MongoDB; a save is a compare-and-swap on `version` in the transaction that appends the events. Sessions
 * of an older session epoch than their account's are deleted in the account's own transaction, server-side (see
 * MongoUserRepository.save), so the sweep here only meets expired and revoked ones.
 */
export class MongoSessionRepository implements SessionRepository {
  constructor(private readonly store: MongoStore) {}

  async add(session: Session, events: readonly RecordedEvent[]): Promise<void> {
    const doc = toDocument(session.snapshot(), session.snapshot().version);
    await translated(() =>
      this.store.transaction(async (tx) => {
        await this.store.sessions.insertOne(doc, { session: tx });
        await this.store.appendEvents(events, tx);
      }),
    );
  }

  async findById(id: string): Promise<Session | null> {
    const doc = await this.store.guarded((signal) => this.store.sessions.findOne({ _id: id }, { signal }));
    return doc ? fromDocument(doc) : null;
  }

  async findByUser(userId: string, epoch: number): Promise<Session[]> {
    const docs = await this.store.guarded((signal) => this.store.sessions.find({ userId, revokedAt: null, ...ofEpoch(epoch) }, { signal }).toArray());
    return docs.map(fromDocument);
  }

  async findPageByUser(userId: string, epoch: number, page: PageRequest): Promise<SessionPage> {
    const after = page.cursor === null ? null : decodeSessionCursor(page.cursor);
    const older = after === null ? {} : { $or: [{ createdAt: { $lt: new Date(after.createdAt) } }, { createdAt: new Date(after.createdAt), _id: { $lt: after.id } }] };
    const docs = await this.store.guarded((signal) =>
      this.store.sessions.find({ userId, revokedAt: null, ...ofEpoch(epoch), ...older }, { signal }).sort({ createdAt: -1, _id: -1 }).limit(page.limit + 1).toArray(),
    );
    const shown = docs.slice(0, page.limit);
    const last = shown.at(-1);
    return {
      sessions: shown.map(fromDocument),
      nextCursor: docs.length > page.limit && last ? encodeSessionCursor({ createdAt: last.createdAt.getTime(), id: last._id }) : null,
    };
  }

  async leastRecentlyUsed(userId: string, epoch: number, keep: number, max: number): Promise<Session[]> {
    const live = { userId, revokedAt: null, ...ofEpoch(epoch) };
    const count = await this.store.guarded((signal) => this.store.sessions.countDocuments(live, { signal }));
    const beyond = Math.min(count - keep, max);
    if (beyond <= 0) return [];
    const docs = await this.store.guarded((signal) => this.store.sessions.find(live, { signal }).sort({ lastUsedAt: 1, _id: 1 }).limit(beyond).toArray());
    return docs.map(fromDocument);
  }

  async save(session: Session, events: readonly RecordedEvent[]): Promise<boolean> {
    const snapshot = session.snapshot();
    const { _id, ...next } = toDocument(snapshot, snapshot.version + 1);
    return translated(() =>
      this.store.transaction(async (tx) => {
        const swapped = await this.store.sessions.replaceOne({ _id, version: snapshot.version }, next, { session: tx });
        if (swapped.matchedCount === 0) return false;
        await this.store.appendEvents(events, tx);
        return true;
      }),
    );
  }

  async saveMany(sessions: readonly Session[], events: readonly RecordedEvent[]): Promise<boolean> {
    if (sessions.length === 0 && events.length === 0) return true;
    try {
      await translated(() =>
        this.store.transaction(async (tx) => {
          await swapSessionsInTransaction(this.store, sessions, tx);
          await this.store.appendEvents(events, tx);
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof StaleSessions) return false;
      throw error;
    }
  }

  async removeExpired(now: Date, limit: number): Promise<number> {
    const ended = { $or: [{ expiresAt: { $lte: now } }, { revokedAt: { $lte: now } }] };
    const due = await this.store.guarded((signal) => this.store.sessions.find(ended, { projection: { _id: 1 }, signal }).limit(limit).toArray());
    if (due.length === 0) return 0;
    const removed = await this.store.guarded(() => this.store.sessions.deleteMany({ _id: { $in: due.map((doc) => doc._id) }, ...ended }));
    return removed.deletedCount;
  }
}
