import { EVENTS, OUTBOX, retentionOfEvent } from './event-tables.js';
import type { EventPruner, PruneBatch } from './retention.js';
import { type Store, entryOf, remove } from './store.js';

/**
 * Removes old events as RETENTION says, over the storage primitive: walks the `prunable` index (only the types that
 * may go, oldest first), so account-defining events cost nothing; a mail request still in the outbox is passed over
 * (the walk goes on after it within a sweep, and looks again at the next).
 */
export class StoreEventPruner implements EventPruner {
  private after: string | undefined;

  constructor(private readonly store: Store) {}

  async pruneBatch(cutoff: Date, limit: number): Promise<PruneBatch> {
    const found = await this.store.range(EVENTS, 'prunable', { prefix: [], ...(this.after === undefined ? {} : { after: this.after }), limit });
    const old = found.filter((event) => event.value.occurredAt.getTime() < cutoff.getTime());
    const pending = await Promise.all(old.map((event) => (retentionOfEvent(event.value) !== 'prune' ? this.store.get(OUTBOX, event.key) : Promise.resolve(null))));
    const removable = old.filter((_, i) => pending[i] === null);
    if (removable.length > 0) await this.store.commit({ changes: removable.map((event) => remove(EVENTS, event.key, event.version)) });
    const last = old.at(-1);
    const done = old.length < limit;
    this.after = done || !last ? undefined : entryOf([last.value.occurredAt.getTime(), last.value.seq], last.key);
    return { examined: old.length, removed: removable.length, done };
  }
}
