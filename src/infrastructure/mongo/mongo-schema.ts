import type { IndexDescription } from 'mongodb';

/** Indexes of the `users` collection: the e-mail (already normalised by the domain) is unique. */
export const USER_INDEXES: IndexDescription[] = [{ key: { email: 1 }, name: 'email_unique', unique: true }];

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
 * Indexes of the `sessions` collection. Per user, the sessions not revoked (`revokedAt: null` is an equality on the
 * index, so revoked ones are never walked): newest first (listing, sign-out of others) and least recently used first
(the per-account cap). Two TTL indexes, so MongoDB's
 * own monitor deletes a session once a deadline passed or once it was revoked (the batched sweep does the same, and
 * elsewhere). Earlier versions had `by_user` ({ userId: 1 }); it is no longer used and may be dropped.
 */
export const SESSION_INDEXES: IndexDescription[] = [
  { key: { userId: 1, revokedAt: 1, createdAt: -1, _id: -1 }, name: 'live_by_user_newest_first' },
  { key: { userId: 1, revokedAt: 1, lastUsedAt: 1, _id: 1 }, name: 'live_by_user_least_recently_used' },
  { key: { expiresAt: 1 }, name: 'expires_ttl', expireAfterSeconds: 0 },
  { key: { revokedAt: 1 }, name: 'revoked_ttl', expireAfterSeconds: 0 },
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
