import { inject, injectable } from 'inversify';
import type { EmailEventQuery, EventLog, RecordedEvent } from '../../application/ports/event-log.port.js';
import { LmdbStore, toRecordedEvent } from './lmdb-store.js';

@injectable()
export class LmdbEventLog implements EventLog {
  constructor(@inject(LmdbStore) private readonly store: LmdbStore) {}

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
}
