import type { EmailEventQuery, EventLog, EventPage, PageRequest, RecordedEvent } from '../../application/ports/event-log.port.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { type LmdbStore, toRecordedEvent } from './lmdb-store.js';

export class LmdbEventLog implements EventLog {
  constructor(private readonly store: LmdbStore) {}

  async append(events: readonly RecordedEvent[]): Promise<void> {
    await this.store.transaction(() => this.store.appendEventsInTransaction(events));
  }

  async findByEmail(query: EmailEventQuery): Promise<RecordedEvent[]> {
    const since = query.since.getTime();
    const matches: RecordedEvent[] = [];
    const keys = this.store.eventsByEmail.getKeys({
      start: [query.email, Number.MAX_SAFE_INTEGER],
      end: [query.email, 0],
      reverse: true,
    });
    for (const [, seq] of keys) {
      const stored = this.store.events.get(seq);
      if (!stored || !query.types.includes(stored.type)) continue;
      if (stored.occurredAt < since) break;
      matches.push(toRecordedEvent(stored));
      if (matches.length >= query.limit) break;
    }
    return Promise.resolve(matches);
  }

  async findByAggregate(aggregateId: string, page: PageRequest): Promise<EventPage> {
    const before = page.cursor === null ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
    const keys = [
      ...this.store.eventsByAggregate.getKeys({ start: [aggregateId, before - 1], end: [aggregateId, 0], reverse: true, limit: page.limit + 1 }),
    ];
    const events = keys.slice(0, page.limit).flatMap(([, seq]) => {
      const stored = this.store.events.get(seq);
      return stored ? [toRecordedEvent(stored)] : [];
    });
    const last = keys[page.limit - 1];
    return Promise.resolve({ events, nextCursor: keys.length > page.limit && last ? encodeCursor(last[1]) : null });
  }
}
