import type { EmailEventQuery, EventLog, EventPage, PageRequest, RecordedEvent } from '../../application/ports/event-log.port.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import type { InMemoryStore } from './in-memory-store.js';

export class InMemoryEventLog implements EventLog {
  constructor(private readonly store: InMemoryStore) {}

  async append(events: readonly RecordedEvent[]): Promise<void> {
    await Promise.resolve();
    this.store.appendEvents(events);
  }

  async findByEmail(query: EmailEventQuery): Promise<RecordedEvent[]> {
    await Promise.resolve();
    const matches: RecordedEvent[] = [];
    for (let i = this.store.events.length - 1; i >= 0 && matches.length < query.limit; i--) {
      const event = this.store.events[i];
      if (!event || event.payload.email !== query.email || !query.types.includes(event.type)) continue;
      if (event.occurredAt < query.since) break;
      matches.push(structuredClone(event));
    }
    return matches;
  }

  async findByAggregate(aggregateId: string, page: PageRequest): Promise<EventPage> {
    await Promise.resolve();
    const events: RecordedEvent[] = [];
    let i = page.cursor === null ? this.store.events.length - 1 : decodeCursor(page.cursor) - 1;
    for (; i >= 0 && events.length < page.limit; i--) {
      const event = this.store.events[i];
      if (event?.aggregateId === aggregateId) events.push(structuredClone(event));
    }
    const older = this.store.events.slice(0, i + 1).some((event) => event.aggregateId === aggregateId);
    return { events, nextCursor: older ? encodeCursor(i + 1) : null };
  }
}
