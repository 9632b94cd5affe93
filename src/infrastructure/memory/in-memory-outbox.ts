import type { DeadLetter, Outbox, PendingMail } from '../../application/ports/outbox.port.js';
import { deadEntry, deadLetterOf, failedEntry, isDue } from '../storage/outbox-entry.js';
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

  async markSent(eventIds: readonly string[]): Promise<void> {
    await Promise.resolve();
    for (const eventId of eventIds) this.store.outbox.delete(eventId);
  }

  async markFailed(eventId: string, nextAttemptAt: Date, error: string): Promise<void> {
    await Promise.resolve();
    const entry = this.store.outbox.get(eventId);
    if (entry?.deadAt === undefined && entry) this.store.outbox.set(eventId, failedEntry(entry, nextAttemptAt.getTime(), error));
  }

  async markDead(eventId: string, at: Date, error: string): Promise<void> {
    await Promise.resolve();
    const entry = this.store.outbox.get(eventId);
    if (entry) this.store.outbox.set(eventId, deadEntry(entry, at.getTime(), error));
  }

  async deadLetters(limit: number): Promise<DeadLetter[]> {
    await Promise.resolve();
    const dead = [...this.store.outbox.values()].flatMap((entry) => deadLetterOf(entry) ?? []);
    return dead.sort((a, b) => b.failedAt.getTime() - a.failedAt.getTime()).slice(0, limit);
  }

  async pendingCount(): Promise<number> {
    await Promise.resolve();
    let pending = 0;
    for (const entry of this.store.outbox.values()) if (entry.deadAt === undefined) pending += 1;
    return pending;
  }
}
