import type { DeadLetter, Outbox, PendingMail } from '../../application/ports/outbox.port.js';
import { EVENTS, OUTBOX, type OutboxRecord, retentionOfEvent, toRecordedEvent } from './event-tables.js';
import { type OutboxEntry, deadEntry, deadLetterOf, failedEntry, isDue, postponedEntry } from './outbox-entry.js';
import { type Change, type Store, type Stored, put, remove } from './store.js';

/** How many times a write of the outbox reads again after another dispatcher changed an entry meanwhile. */
const ATTEMPTS = 5;

/**
 * The outbox over the storage primitive, the same for every store. A claim reads only due entries (the `due` index)
 * and leases them by compare-and-swap in one commit: of two dispatchers, one holds an entry, the other reads again.
 */
export class StoreOutbox implements Outbox {
  constructor(private readonly store: Store) {}

  async claim(now: Date, leaseMs: number, limit: number): Promise<PendingMail[]> {
    const at = now.getTime();
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const due = (await this.store.range(OUTBOX, 'due', { prefix: [], below: [at + 1], limit })).filter((entry) => isDue(entry.value, at));
      const events = await Promise.all(due.map((entry) => this.store.get(EVENTS, entry.key)));
      const claimed = due.flatMap((entry, i) => {
        const event = events[i];
        return event ? [{ entry, event }] : [];
      });
      const changes = claimed.map(({ entry }) => put(OUTBOX, entry.key, { ...entry.value, leaseUntil: at + leaseMs }, entry.version));
      if (changes.length === 0) return [];
      if ((await this.store.commit({ changes })).status === 'committed') {
        return claimed.map(({ entry, event }) => ({ event: toRecordedEvent(event.value), attempts: entry.value.attempts }));
      }
    }
    return [];
  }

  /** One commit: an entry gone already is left as it is; an event kept only until its mail is sent goes with it. */
  async markSent(eventIds: readonly string[]): Promise<void> {
    if (eventIds.length === 0) return;
    const events = await Promise.all(eventIds.map((id) => this.store.get(EVENTS, id)));
    const spent = events.flatMap((event) => (event && retentionOfEvent(event.value) === 'until-sent' ? [remove(EVENTS, event.key, 'any')] : []));
    await this.store.commit({ changes: [...eventIds.map((id) => remove(OUTBOX, id, 'any')), ...spent] });
  }

  async markFailed(eventId: string, nextAttemptAt: Date, error: string): Promise<void> {
    await this.update(eventId, (entry) => (entry.deadAt === undefined ? failedEntry(entry, nextAttemptAt.getTime(), error) : entry));
  }

  async postpone(eventId: string, nextAttemptAt: Date, error: string): Promise<void> {
    await this.update(eventId, (entry) => postponedEntry(entry, nextAttemptAt.getTime(), error));
  }

  async markDead(eventId: string, at: Date, error: string): Promise<void> {
    await this.update(eventId, (entry) => deadEntry(entry, at.getTime(), error));
  }

  async deadLetters(limit: number): Promise<DeadLetter[]> {
    return (await this.store.range(OUTBOX, 'dead', { prefix: [], limit, reverse: true })).flatMap((entry) => deadLetterOf(entry.value) ?? []);
  }

  /** Counted on the due index: nothing is read. */
  pendingCount(): Promise<number> {
    return this.store.count(OUTBOX, 'due', []);
  }

  private update(eventId: string, next: (entry: OutboxEntry) => OutboxEntry): Promise<void> {
    return this.rewrite([eventId], (entry) => put(OUTBOX, entry.key, { ...next(entry.value), seq: entry.value.seq }, entry.version));
  }

  /** Reads the entries and writes what `change` makes of each, in one commit, reading again when one changed meanwhile. */
  private async rewrite(eventIds: readonly string[], change: (entry: Stored<OutboxRecord>) => Change): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const entries = (await Promise.all(eventIds.map((id) => this.store.get(OUTBOX, id)))).filter((entry) => entry !== null);
      if (entries.length === 0) return;
      if ((await this.store.commit({ changes: entries.map(change) })).status === 'committed') return;
    }
  }
}
