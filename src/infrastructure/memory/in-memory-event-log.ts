import { inject, injectable } from 'inversify';
import type { EmailEventQuery, EventLog, RecordedEvent } from '../../application/ports/event-log.port.js';
import { InMemoryStore } from './in-memory-store.js';

@injectable()
export class InMemoryEventLog implements EventLog {
  constructor(@inject(InMemoryStore) private readonly store: InMemoryStore) {}

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
      if (event.occurredAt < query.since) continue;
      matches.push(structuredClone(event));
    }
    return matches;
  }
}
