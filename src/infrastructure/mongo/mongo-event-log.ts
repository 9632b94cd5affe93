import type { Filter } from 'mongodb';
import type { EmailEventQuery, EventLog, EventPage, PageRequest, RecordedEvent } from '../../application/ports/event-log.port.js';
import { decodeMongoCursor, encodeMongoCursor } from './mongo-cursor.js';
import { type EventDocument, fromEventDocument } from './mongo-documents.js';
import { translated } from './mongo-errors.js';
import type { MongoStore } from './mongo-store.js';

const NEWEST_FIRST = { occurredAt: -1, _id: -1 } as const;

/**
 * The event log in the `events` collection. "Newest first" is by `occurredAt`, then by the `_id` ObjectId made at
 * append (append order within one process) for events of the same instant.
 */
export class MongoEventLog implements EventLog {
  constructor(private readonly store: MongoStore) {}

  async append(events: readonly RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    await translated(() => this.store.transaction((session) => this.store.appendEvents(events, session)));
  }

  async findByEmail(query: EmailEventQuery): Promise<RecordedEvent[]> {
    if (query.limit < 1 || query.types.length === 0) return [];
    const filter: Filter<EventDocument> = { 'payload.email': query.email, type: { $in: [...query.types] }, occurredAt: { $gte: query.since } };
    const docs = await this.store.guarded((signal) => this.store.events.find(filter, { sort: NEWEST_FIRST, limit: query.limit, signal }).toArray());
    return docs.map(fromEventDocument);
  }

  async findByAggregate(aggregateId: string, page: PageRequest): Promise<EventPage> {
    const after = page.cursor === null ? null : decodeMongoCursor(page.cursor);
    if (page.limit < 1) return { events: [], nextCursor: null };
    const filter: Filter<EventDocument> =
      after === null
        ? { aggregateId }
        : {
            aggregateId,
            occurredAt: { $lte: after.occurredAt },
            $or: [{ occurredAt: { $lt: after.occurredAt } }, { occurredAt: after.occurredAt, _id: { $lt: after.id } }],
          };
    const docs = await this.store.guarded((signal) => this.store.events.find(filter, { sort: NEWEST_FIRST, limit: page.limit + 1, signal }).toArray());
    const shown = docs.slice(0, page.limit);
    const last = shown[shown.length - 1];
    return {
      events: shown.map(fromEventDocument),
      nextCursor: docs.length > page.limit && last ? encodeMongoCursor({ occurredAt: last.occurredAt, id: last._id }) : null,
    };
  }
}
