import type { ObjectId } from 'mongodb';
import type { RecordedEvent, RequestMetadata } from '../../application/ports/event-log.port.js';
import type { SessionSnapshot } from '../../domain/session.js';
import type { OutboxEntry } from '../storage/outbox-entry.js';

/** A document of the `users` collection before the storage primitive (read once, by the migration): `_id` is the user id; the argon2 hash is the only secret and stays here. */
export interface UserDocument {
  _id: string;
  name: string;
  lastname: string;
  email: string;
  passwordHash: string;
  createdAt: Date;
  /** Absent in documents written before verification existed (read as false). */
  emailVerified?: boolean;
  /** See UserSnapshot.sessionEpoch; absent in documents written before it existed (read as 0). */
  sessionEpoch?: number;
  /** Optimistic concurrency (see UserSnapshot.version); absent in documents written before it existed (read as 0). */
  version?: number;
  /** Incremented by every save, so that every save writes the document (see MongoUserRepository.save). */
  commits?: number;
}

/** A document of the `sessions` collection before the storage primitive (read once, by the migration): the snapshot, `_id` the session id. No token, no hash of one. */
export type SessionDocument = Omit<SessionSnapshot, 'id'> & { _id: string };

/**
 * A document of the append-only `events` collection before the storage primitive (read once, by the migration). `_id` is an ObjectId made when the event is appended:
 * it breaks ties between events of the same `occurredAt`, in append order within one process (ObjectIds from two
 * instances in the same second order by their per-process random part), always in one total, stable order.
 */
export interface EventDocument {
  _id: ObjectId;
  /** Set on the `prune` types of RETENTION only: when MongoDB's TTL monitor may delete the event (EVENT_RETENTION_DAYS). */
  expiresAt?: Date;
  eventId: string;
  type: RecordedEvent['type'];
  aggregateId: string | null;
  occurredAt: Date;
  payload: RecordedEvent['payload'];
  metadata: RequestMetadata;
}

/** The `health` collection: one document rewritten by every health check. */
export interface HealthDocument {
  _id: string;
  checkedAt: Date;
}

/** A document of the `outbox` collection before the storage primitive (read once, by the migration): the delivery state of one mail, `_id` its event id, `createdAt` its event's time. */
export type OutboxDocument = OutboxEntry & { _id: string; createdAt: Date; claimId?: string };
