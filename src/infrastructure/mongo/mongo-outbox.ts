import { randomUUID } from 'node:crypto';
import type { Filter } from 'mongodb';
import type { DeadLetter, Outbox, PendingMail } from '../../application/ports/outbox.port.js';
import { type OutboxDocument, fromEventDocument } from './mongo-documents.js';
import type { MongoStore } from './mongo-store.js';

/** A dead letter's next attempt: never, and past the end of every claim's range on the `due_in_order` index. */
const NEVER = Number.MAX_SAFE_INTEGER;
const DUE_ORDER = { nextAttemptAt: 1, leaseUntil: 1, createdAt: 1 } as const;
/** Rounds of one claim that lost every candidate to another instance before it gives up (the next poll tries again). */
const MAX_CLAIM_ROUNDS = 8;

const dueAt = (at: number): Filter<OutboxDocument> => ({ nextAttemptAt: { $lte: at }, leaseUntil: { $lte: at } });

/**
 * The outbox in MongoDB. A claim reads the due entries from the `due_in_order` index and leases them with one
 * updateMany that checks again, per document, that each is still due, tagged with a fresh claim id: two instances
 * never hold the same entry, and each learns which it won by that id.
 */
export class MongoOutbox implements Outbox {
  constructor(private readonly store: MongoStore) {}

  private get outbox() {
    return this.store.outbox;
  }

  async claim(now: Date, leaseMs: number, limit: number): Promise<PendingMail[]> {
    const at = now.getTime();
    const won: OutboxDocument[] = [];
    for (let round = 0; round < MAX_CLAIM_ROUNDS && won.length < limit; round++) {
      const wanted = limit - won.length;
      const candidates = await this.store.guarded((signal) =>
        this.outbox.find(dueAt(at), { projection: { _id: 1 }, sort: DUE_ORDER, limit: wanted, signal }).toArray(),
      );
      if (candidates.length === 0) break;
      const ids = candidates.map((candidate) => candidate._id);
      const claimId = randomUUID();
      const leaseUntil = at + leaseMs;
      await this.store.guarded(() => this.outbox.updateMany({ _id: { $in: ids }, ...dueAt(at) }, { $set: { leaseUntil, nextAttemptAt: leaseUntil, claimId } }));
      const mine = await this.store.guarded((signal) => this.outbox.find({ _id: { $in: ids }, claimId }, { sort: DUE_ORDER, signal }).toArray());
      won.push(...mine);
      if (candidates.length < wanted && mine.length === candidates.length) break;
    }
    if (won.length === 0) return [];
    const eventIds = won.map((entry) => entry.eventId);
    const events = await this.store.guarded((signal) => this.store.events.find({ eventId: { $in: eventIds } }, { signal }).toArray());
    const byId = new Map(events.map((event) => [event.eventId, event]));
    return won.flatMap((entry) => {
      const event = byId.get(entry.eventId);
      return event ? [{ event: fromEventDocument(event), attempts: entry.attempts }] : [];
    });
  }

  async markSent(eventIds: readonly string[]): Promise<void> {
    if (eventIds.length > 0) await this.store.guarded(() => this.outbox.deleteMany({ _id: { $in: [...eventIds] } }));
  }

  async markFailed(eventId: string, nextAttemptAt: Date, error: string): Promise<void> {
    await this.store.guarded(() =>
      this.outbox.updateOne(
        { _id: eventId, deadAt: { $exists: false } },
        { $inc: { attempts: 1 }, $set: { nextAttemptAt: nextAttemptAt.getTime(), leaseUntil: 0, lastError: error } },
      ),
    );
  }

  async markDead(eventId: string, at: Date, error: string): Promise<void> {
    await this.store.guarded(() =>
      this.outbox.updateOne(
        { _id: eventId, deadAt: { $exists: false } },
        { $inc: { attempts: 1 }, $set: { nextAttemptAt: NEVER, leaseUntil: 0, deadAt: at.getTime(), lastError: error } },
      ),
    );
  }

  async deadLetters(limit: number): Promise<DeadLetter[]> {
    const dead = await this.store.guarded((signal) =>
      this.outbox.find({ deadAt: { $exists: true } }, { sort: { deadAt: -1 }, limit, signal }).toArray(),
    );
    return dead.map((entry) => ({ eventId: entry.eventId, attempts: entry.attempts, failedAt: new Date(entry.deadAt ?? 0), lastError: entry.lastError ?? '' }));
  }

  /** Counted on the `due_in_order` index (every entry but the dead letters), without reading a document. */
  pendingCount(): Promise<number> {
    return this.store.guarded(() => this.outbox.countDocuments({ nextAttemptAt: { $lt: NEVER } }));
  }
}
