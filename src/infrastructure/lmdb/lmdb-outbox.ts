import type { Outbox, PendingMail } from '../../application/ports/outbox.port.js';
import { isDue } from '../storage/outbox-entry.js';
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

  async markFailed(eventId: string, nextAttemptAt: Date): Promise<void> {
    const seq = this.store.eventSeqById.get(eventId);
    if (seq === undefined) return;
    await this.store.transaction(() => {
      const entry = this.store.outbox.get(seq);
      if (entry) void this.store.outbox.put(seq, { ...entry, attempts: entry.attempts + 1, nextAttemptAt: nextAttemptAt.getTime(), leaseUntil: 0 });
    });
  }
}
