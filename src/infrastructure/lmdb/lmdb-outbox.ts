import type { DeadLetter, Outbox, PendingMail } from '../../application/ports/outbox.port.js';
import { type OutboxEntry, deadEntry, deadLetterOf, failedEntry, isDue } from '../storage/outbox-entry.js';
import { type LmdbStore, toRecordedEvent } from './lmdb-store.js';

/** The outbox in the LMDB environment; a claim is one write transaction (one writer at a time, across processes). */
export class LmdbOutbox implements Outbox {
  constructor(private readonly store: LmdbStore) {}

  claim(now: Date, leaseMs: number, limit: number): Promise<PendingMail[]> {
    return this.store.transaction(() => {
      const claimed: PendingMail[] = [];
      for (const { key: seq, value: entry } of this.store.outbox.getRange({})) {
        if (claimed.length >= limit) break;
        if (!isDue(entry, now.getTime())) continue;
        const stored = this.store.events.get(seq);
        if (!stored) continue;
        void this.store.outbox.put(seq, { ...entry, leaseUntil: now.getTime() + leaseMs });
        claimed.push({ event: toRecordedEvent(stored), attempts: entry.attempts });
      }
      return claimed;
    });
  }

  async markSent(eventId: string): Promise<void> {
    const seq = this.store.eventSeqById.get(eventId);
    if (seq !== undefined) await this.store.transaction(() => void this.store.outbox.remove(seq));
  }

  markFailed(eventId: string, nextAttemptAt: Date, error: string): Promise<void> {
    return this.update(eventId, (entry) => (entry.deadAt === undefined ? failedEntry(entry, nextAttemptAt.getTime(), error) : entry));
  }

  markDead(eventId: string, at: Date, error: string): Promise<void> {
    return this.update(eventId, (entry) => deadEntry(entry, at.getTime(), error));
  }

  async deadLetters(limit: number): Promise<DeadLetter[]> {
    const dead: DeadLetter[] = [];
    for (const { value } of this.store.outbox.getRange({})) {
      const letter = deadLetterOf(value);
      if (letter) dead.push(letter);
    }
    return dead.sort((a, b) => b.failedAt.getTime() - a.failedAt.getTime()).slice(0, limit);
  }

  async pendingCount(): Promise<number> {
    let pending = 0;
    for (const { value } of this.store.outbox.getRange({})) if (value.deadAt === undefined) pending += 1;
    return pending;
  }

  private async update(eventId: string, next: (entry: OutboxEntry) => OutboxEntry): Promise<void> {
    const seq = this.store.eventSeqById.get(eventId);
    if (seq === undefined) return;
    await this.store.transaction(() => {
      const entry = this.store.outbox.get(seq);
      if (entry) void this.store.outbox.put(seq, next(entry));
    });
  }
}
