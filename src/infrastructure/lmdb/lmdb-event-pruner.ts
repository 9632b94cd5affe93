import type { Database } from 'lmdb';
import { type EventPruner, type PruneBatch, RETENTION } from '../storage/retention.js';
import type { LmdbStore } from './lmdb-store.js';

/**
 * Walks the log in append order from a cursor kept in the store, so each old event is looked at once: an old event
 * RETENTION lets go is removed with its index entries; an old kept one (`keep`, a type no longer declared, or a
 * `prune-after-sent` mail still in the outbox) is passed over for good.
 */
export class LmdbEventPruner implements EventPruner {
  private readonly state: Database<number, string>;

  constructor(private readonly store: LmdbStore) {
    this.state = store.root.openDB<number, string>({ name: 'retention' });
  }

  pruneBatch(cutoff: Date, limit: number): Promise<PruneBatch> {
    const { store } = this;
    return store.transaction(() => {
      const cursor = this.state.get('cursor') ?? 0;
      let examined = 0;
      let removed = 0;
      let last = cursor;
      let done = true;
      for (const { key: seq, value: event } of store.events.getRange({ start: cursor + 1, limit })) {
        if (event.occurredAt >= cutoff.getTime()) break;
        examined += 1;
        last = seq;
        const retention = RETENTION[event.type];
        if (retention === 'prune' || (retention === 'prune-after-sent' && !store.outbox.doesExist(seq))) {
          void store.events.remove(seq);
          void store.eventSeqById.remove(event.eventId);
          void store.eventsByEmail.remove([event.payload.email, seq]);
          if (event.aggregateId !== null) void store.eventsByAggregate.remove([event.aggregateId, seq]);
          removed += 1;
        }
      }
      if (examined === limit) done = false;
      void this.state.put('cursor', last);
      return { examined, removed, done };
    });
  }
}
