import { InvalidCursor } from '../../application/errors.js';
import type { EventLog, EventPage, PageRequest, RecordedEvent } from '../../application/ports/event-log.port.js';
import { EVENTS, type EventRecord, toRecordedEvent } from './event-tables.js';
import { type Store, type Stored, entryOf } from './store.js';

const CURSOR = /^e1:([0-9a-z]{1,40}):([0-9A-Za-z_-]{1,80})$/;

const encodeCursor = (last: Stored<EventRecord>): string => Buffer.from(`e1:${last.value.seq}:${last.key}`).toString('base64url');

const decodeCursor = (cursor: string): { seq: string; eventId: string } => {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1] || !match[2]) throw new InvalidCursor();
  return { seq: match[1], eventId: match[2] };
};

/** The event log over the storage primitive, the same for every store: appends are commits, reads walk its indexes. */
export class StoreEventLog implements EventLog {
  constructor(private readonly store: Store) {}

  async append(events: readonly RecordedEvent[]): Promise<void> {
    if (events.length > 0) await this.store.commit({ events });
  }

  async findByAggregate(aggregateId: string, page: PageRequest): Promise<EventPage> {
    const position = page.cursor === null ? null : decodeCursor(page.cursor);
    if (page.limit < 1) return { events: [], nextCursor: null };
    const after = position && entryOf([aggregateId, position.seq], position.eventId);
    const found = await this.store.range(EVENTS, 'byAggregate', { prefix: [aggregateId], ...(after === null ? {} : { after }), limit: page.limit + 1, reverse: true });
    const shown = found.slice(0, page.limit);
    // An event of an erased account keeps its place in the log, its payload unreadable (null): it shows nothing; nor does
    // a capability's event (stamped with its retention) that its capability did not declare for the activity.
    const readable = shown.filter((stored) => stored.value.payload !== null && (stored.value.retention === undefined || stored.value.activity === true));
    const last = shown.at(-1);
    return { events: readable.map((stored) => toRecordedEvent(stored.value)), nextCursor: found.length > page.limit && last ? encodeCursor(last) : null };
  }
}
