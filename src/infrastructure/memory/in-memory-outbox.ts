import type { Outbox, PendingMail } from '../../application/ports/outbox.port.js';
import { isDue } from '../storage/outbox-entry.js';
import type { InMemoryStore } from './in-memory-store.js';

/** The outbox in memory: each method reads and writes in one synchronous step. */
export class InMemoryOutbox implements Outbox {
  constructor(private readonly store: InMemoryStore) {}

  async claim(now: Date, leaseMs: number, limit: number): Promise<PendingMail[]> {
    await Promise.resolve();
    const claimed: PendingMail[] = [];
    for (const entry of this.store.outbox.values()) {
      if (claimed.length >= limit) break;
      if (!isDue(entry, now.getTime())) continue;
      const event = this.store.events.find((candidate) => candidate.eventId === entry.eventId);
      if (!event) continue;
      this.store.outbox.set(entry.eventId, { ...entry, leaseUntil: now.getTime() + leaseMs });
      claimed.push({ event: structuredClone(event), attempts: entry.attempts });
    }
    return claimed;
  }

  async markSent(eventId: string): Promise<void> {
    await Promise.resolve();
    this.store.outbox.delete(eventId);
  }

  async markFailed(eventId: string, nextAttemptAt: Date): Promise<void> {
    await Promise.resolve();
    const entry = this.store.outbox.get(eventId);
    if (entry) this.store.outbox.set(eventId, { ...entry, attempts: entry.attempts + 1, nextAttemptAt: nextAttemptAt.getTime(), leaseUntil: 0 });
  }
}
