import type { DeadLetter, Outbox, PendingMail } from '../../application/ports/outbox.port.js';
import { type OutboxEntry, deadEntry, deadLetterOf, failedEntry, isDue } from '../storage/outbox-entry.js';
import { type LmdbStore, toRecordedEvent } from './lmdb-store.js';

/**
 * The outbox in the LMDB environment; a claim is one write transaction (one writer at a time, across processes) that
 * reads only the due entries, from the due index ([dueAt, seq]): entries waiting for a retry or a lease, and the
 * dead letters, cost a claim nothing.
 */
export class LmdbOutbox implements Outbox {
  constructor(private readonly store: LmdbStore) {}

  claim(now: Date, leaseMs: number, limit: number): Promise<PendingMail[]> {
    const at = now.getTime();
    return this.store.transaction(() => {
      const claimed: PendingMail[] = [];
      for (const [dueAt, seq] of [...this.store.outboxDue.getKeys({ end: [at + 1], limit })]) {
        const entry = this.store.outbox.get(seq);
        const stored = this.store.events.get(seq);
        if (!entry || !stored || !isDue(entry, at)) {
          void this.store.outboxDue.remove([dueAt, seq]);
          continue;
        }
        this.store.putOutboxEntryInTransaction(seq, { ...entry, leaseUntil: at + leaseMs }, entry);
        claimed.push({ event: toRecordedEvent(stored), attempts: entry.attempts });
      }
      return claimed;
    });
  }

  async markSent(eventIds: readonly string[]): Promise<void> {
    const seqs = eventIds.flatMap((eventId) => {
      const seq = this.store.eventSeqById.get(eventId);
      return seq === undefined ? [] : [seq];
    });
    if (seqs.length > 0) await this.store.transaction(() => seqs.forEach((seq) => this.store.removeOutboxEntryInTransaction(seq)));
  }

  markFailed(eventId: string, nextAttemptAt: Date, error: string): Promise<void> {
    return this.update(eventId, (entry) => (entry.deadAt === undefined ? failedEntry(entry, nextAttemptAt.getTime(), error) : entry));
  }

  markDead(eventId: string, at: Date, error: string): Promise<void> {
    return this.update(eventId, (entry) => deadEntry(entry, at.getTime(), error));
  }

  /** Walks the outbox (an operator's query, not the dispatcher's). */
  async deadLetters(limit: number): Promise<DeadLetter[]> {
    const dead: DeadLetter[] = [];
    for (const { value } of this.store.outbox.getRange({})) {
      const letter = deadLetterOf(value);
      if (letter) dead.push(letter);
    }
    return dead.sort((a, b) => b.failedAt.getTime() - a.failedAt.getTime()).slice(0, limit);
  }

  /** The due index's entry count, from LMDB's statistics: nothing is read. */
  async pendingCount(): Promise<number> {
    await Promise.resolve();
    return (this.store.outboxDue.getStats() as { entryCount: number }).entryCount;
  }

  private async update(eventId: string, next: (entry: OutboxEntry) => OutboxEntry): Promise<void> {
    const seq = this.store.eventSeqById.get(eventId);
    if (seq === undefined) return;
    await this.store.transaction(() => {
      const entry = this.store.outbox.get(seq);
      if (entry) this.store.putOutboxEntryInTransaction(seq, next(entry), entry);
    });
  }
}
