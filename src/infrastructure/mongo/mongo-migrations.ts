import { ACCOUNT_VIEWS, EMAIL_CLAIM, ENDED_EPOCHS, SESSIONS, USERS, type UserRecord, accountViewOf } from '../storage/account-tables.js';
import { CLAIMS, claimKey } from '../storage/commit-plan.js';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { EVENTS, OUTBOX } from '../storage/event-tables.js';
import type { ObjectId } from 'mongodb';
import type { SessionSnapshot } from '../../domain/session.js';
import type { OutboxEntry } from '../storage/outbox-entry.js';

/** The collections before the storage primitive, as this migration reads them (`_id`: the user's, session's, event's id). */
type UserDocument = Omit<UserRecord, 'id' | 'emailVerified' | 'sessionEpoch'> & { _id: string; emailVerified?: boolean; sessionEpoch?: number; version?: number };
type SessionDocument = Omit<SessionSnapshot, 'id'> & { _id: string };
type EventDocument = Omit<RecordedEvent, 'occurredAt'> & { _id: ObjectId; occurredAt: Date; expiresAt?: Date };
type OutboxDocument = OutboxEntry & { _id: string; createdAt: Date; claimId?: string };
import type { MongoStore } from './mongo-store.js';
import type { MongoTables } from './mongo-tables.js';

const BATCH = 500;

/**
 * Copies the accounts, sessions, events and outbox of a database written before the storage primitive (the `users`,
 * `sessions`, `events` and `outbox` collections) into its tables (`kv.users` with the e-mail claims in `kv.claims`, `kv.sessions`, an ended-epoch
 * marker for each account past epoch 0), in batches, then marks the database done (`kv.migrations`). A record
 * already in a table is never overwritten, so an instance that serves while another migrates loses nothing, and a
 * migration cut short is simply run again at the next start. The old collections are left for an operator to drop.
 */
export async function migrateToTables(store: MongoStore, tables: MongoTables): Promise<void> {
  const migrations = store.db.collection<{ _id: string; done: boolean }>('kv.migrations');
  if (await store.guarded(() => migrations.findOne({ _id: 'tables' }))) return;
  await copy(store.db.collection<UserDocument>('users'), async (docs) => {
    await tables.importRows(USERS, docs.map((doc) => ({ key: doc._id, value: userRecord(doc), version: doc.version ?? 0 })));
    await tables.importRows(ACCOUNT_VIEWS, docs.map((doc) => ({ key: doc._id, value: accountViewOf(userRecord(doc)), version: 0 })));
    await tables.importRows(CLAIMS, docs.map((doc) => ({ key: claimKey(EMAIL_CLAIM, doc.email), value: { owner: doc._id }, version: 0 })));
    const ended = docs.filter((doc) => (doc.sessionEpoch ?? 0) > 0);
    await tables.importRows(ENDED_EPOCHS, ended.map((doc) => ({ key: doc._id, value: { userId: doc._id, epoch: doc.sessionEpoch ?? 0 }, version: 0 })));
  });
  await copy(store.db.collection<SessionDocument>('sessions'), async (docs) => {
    await tables.importRows(SESSIONS, docs.map(({ _id, version, ...rest }) => ({ key: _id, value: { id: _id, ...rest }, version })));
  });
  const events = store.db.collection<EventDocument>('events');
  await copy(events, async (docs) => {
    await tables.importRows(EVENTS, docs.map(({ _id, expiresAt: _expiresAt, ...event }) => ({ key: event.eventId, value: { ...event, seq: placeOf(_id) } as RecordedEvent & { seq: string }, version: 0 })));
  });
  await copy(store.db.collection<OutboxDocument>('outbox'), async (docs) => {
    const placed = new Map((await events.find({ eventId: { $in: docs.map((doc) => doc._id) } }, { projection: { eventId: 1 } }).toArray()).map((doc) => [doc.eventId, placeOf(doc._id)]));
    const rows = docs.flatMap(({ _id, createdAt: _createdAt, claimId: _claimId, ...entry }) => {
      const seq = placed.get(_id);
      return seq === undefined ? [] : [{ key: _id, value: { ...entry, eventId: _id, seq }, version: 0 }];
    });
    await tables.importRows(OUTBOX, rows);
  });
  await store.guarded(() => migrations.updateOne({ _id: 'tables' }, { $set: { done: true } }, { upsert: true }));
}

/** An event's place in the log, from its ObjectId (time, then process and counter): `a…`, before every newer place `b…`. */
const placeOf = (id: { toHexString(): string }): string => `a${id.toHexString()}`;

const userRecord = (doc: UserDocument): UserRecord => ({
  id: doc._id, name: doc.name, lastname: doc.lastname, email: doc.email, passwordHash: doc.passwordHash,
  createdAt: doc.createdAt, emailVerified: doc.emailVerified ?? false, sessionEpoch: doc.sessionEpoch ?? 0,
});

async function copy<D extends { _id: unknown }>(collection: import('mongodb').Collection<D>, write: (docs: D[]) => Promise<void>): Promise<void> {
  let batch: D[] = [];
  for await (const doc of collection.find({}, { sort: { _id: 1 } })) {
    batch.push(doc as D);
    if (batch.length >= BATCH) {
      await write(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await write(batch);
}
