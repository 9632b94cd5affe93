import type { IndexDescription } from 'mongodb';

/**
 * Indexes of the `events` collection: `eventId` is unique (appends are idempotent); the two queries
 * read newest first by (occurredAt, _id) within one aggregate or one e-mail and type.
 */
export const EVENT_INDEXES: IndexDescription[] = [
  { key: { eventId: 1 }, name: 'eventId_unique', unique: true },
  { key: { aggregateId: 1, occurredAt: -1, _id: -1 }, name: 'aggregate_newest_first' },
  { key: { 'payload.email': 1, type: 1, occurredAt: -1, _id: -1 }, name: 'email_type_newest_first' },
];

/**
 * Indexes of the `outbox` collection. `due_in_order`: a claim reads only the due entries (next attempt and lease at or
 * before now), oldest due first, from the index (a dead letter's `nextAttemptAt` is NEVER: out of every claim's
 * range); `dead_letters`: the dead letters alone, newest first, for an operator.
 */
export const OUTBOX_INDEXES: IndexDescription[] = [
  { key: { nextAttemptAt: 1, leaseUntil: 1, createdAt: 1 }, name: 'due_in_order' },
  { key: { deadAt: -1 }, name: 'dead_letters', partialFilterExpression: { deadAt: { $exists: true } } },
];
