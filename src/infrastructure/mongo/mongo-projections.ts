import type { ClientSession, Collection } from 'mongodb';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { OutboxEntry } from '../storage/outbox-entry.js';
import type { ProjectionTable, ProjectionTables } from '../storage/projections.js';
import { MAX_TRACKED_AGE_MS } from '../storage/sign-in-failures.js';
import { MAX_MAIL_REQUEST_AGE_MS } from '../storage/mail-requests.js';
import type { MailRequestsDocument, OutboxDocument, SignInFailuresDocument } from './mongo-documents.js';

export interface ProjectionCollections {
  readonly outbox: Collection<OutboxDocument>;
  readonly signInFailures: Collection<SignInFailuresDocument>;
  readonly mailRequests: Collection<MailRequestsDocument>;
}

const entryOf = ({ eventId, attempts, nextAttemptAt, leaseUntil }: OutboxDocument): OutboxEntry => ({ eventId, attempts, nextAttemptAt, leaseUntil });

/** The TTL monitor removes a failure record 24 h after the failure that last wrote it. */
const failuresExpiry = (event: RecordedEvent): Date => new Date(event.occurredAt.getTime() + MAX_TRACKED_AGE_MS);

/** The TTL monitor removes a mail-request record 24 h after the request that last wrote it. */
const requestsExpiry = (event: RecordedEvent): Date => new Date(event.occurredAt.getTime() + MAX_MAIL_REQUEST_AGE_MS);

/** A record of instants by key (sign-in failures, mail requests), with the TTL `expiresAt` that `expiry` gives it. */
const timesTable = (
  collection: Collection<{ _id: string; times: number[]; expiresAt: Date }>,
  expiry: (event: RecordedEvent) => Date,
  session: ClientSession,
): ProjectionTable<number[], Promise<void>> => ({
  insert: async (key, times, event) => {
    await collection.insertOne({ _id: key, times, expiresAt: expiry(event) }, { session });
  },
  update: async (key, next, event) => {
    const current = await collection.findOne({ _id: key }, { session });
    await collection.updateOne({ _id: key }, { $set: { times: next(current?.times), expiresAt: expiry(event) } }, { session, upsert: true });
  },
  remove: async (key) => {
    await collection.deleteOne({ _id: key }, { session });
  },
});

/**
 * The projections' tables in MongoDB, every write in `session`'s transaction (the one appending the events). An outbox
 * document also carries `createdAt` (the event's time: claims go in that order); a failure record, its TTL `expiresAt`.
 */
export const projectionTables = ({ outbox, signInFailures, mailRequests }: ProjectionCollections, session: ClientSession): ProjectionTables<Promise<void>> => ({
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
  signInFailures: timesTable(signInFailures, failuresExpiry, session),
  mailRequests: timesTable(mailRequests, requestsExpiry, session),
});
