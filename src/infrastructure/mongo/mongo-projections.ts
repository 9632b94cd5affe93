import type { ClientSession, Collection } from 'mongodb';
import type { OutboxEntry } from '../storage/outbox-entry.js';
import type { ProjectionTables } from '../storage/projections.js';
import type { OutboxDocument } from './mongo-documents.js';

export interface ProjectionCollections {
  readonly outbox: Collection<OutboxDocument>;
}

const entryOf = ({ eventId, attempts, nextAttemptAt, leaseUntil }: OutboxDocument): OutboxEntry => ({ eventId, attempts, nextAttemptAt, leaseUntil });

/**
 * The projections' tables in MongoDB, every write in `session`'s transaction (the one appending the events). An outbox
 * document also carries `createdAt` (the event's time: claims go in that order).
 */
export const projectionTables = ({ outbox }: ProjectionCollections, session: ClientSession): ProjectionTables<Promise<void>> => ({
  outbox: {
    insert: async (key, row, event) => {
      await outbox.insertOne({ _id: key, ...row, createdAt: event.occurredAt }, { session });
    },
    update: async (key, next, event) => {
      const current = await outbox.findOne({ _id: key }, { session });
      const row = next(current ? entryOf(current) : undefined);
      await outbox.updateOne({ _id: key }, { $set: row, $setOnInsert: { createdAt: event.occurredAt } }, { session, upsert: true });
    },
    remove: async (key) => {
      await outbox.deleteOne({ _id: key }, { session });
    },
  },
});
