import { MAX_TRACKED_AGE_MS, nextFailures } from '../sign-in-failures.js';
import { type ClientSession, type Collection, type Db, MongoClient, MongoServerSelectionError, type TransactionOptions } from 'mongodb';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { type OutboxEntry, needsMail, newEntry } from '../outbox-entry.js';
import { type EventDocument, type HealthDocument, type SignInFailuresDocument, type UserDocument, toEventDocument } from './mongo-documents.js';
import { EVENT_INDEXES, OUTBOX_INDEXES, SESSION_INDEXES, USER_INDEXES, assertSupportsTransactions } from './mongo-schema.js';

export interface MongoSettings {
  readonly uri: string;
  readonly dbName: string;
  /** How long an operation waits for a usable primary before failing (and the service answering 503). */
  readonly serverSelectionTimeoutMS?: number;
  /** EVENT_RETENTION_DAYS: high-volume events get an `expiresAt` this long after they occurred (default 90). */
  readonly eventRetentionDays?: number;
}

const DAY_MS = 86_400_000;
/** The high-volume types MongoDB's TTL monitor may delete; mail events are kept (a TTL index cannot see the outbox). */
const TTL_EVENT_TYPES: ReadonlySet<string> = new Set(['SignInFailed', 'UserSignedIn', 'SessionStarted']);

/** A document of the `outbox` collection: the delivery state of one mail, `_id` its event id. */
export type OutboxDocument = OutboxEntry & { _id: string; createdAt: Date };

/** Thrown at start-up when no usable server answers in time. Names the database, never the URI (it may hold a password). */
export class MongoUnreachable extends Error {
  constructor(settings: MongoSettings, cause: Error) {
    super(
      `Cannot reach a writable MongoDB primary for database "${settings.dbName}" (${cause.message}). ` +
        'Check MONGODB_URI; if the server is a standalone, start mongod with `--replSet rs0` and run `rs.initiate()`.',
      { cause },
    );
    this.name = 'MongoUnreachable';
  }
}

const TRANSACTION: TransactionOptions = {
  readConcern: { level: 'majority' },
  writeConcern: { w: 'majority', journal: true },
  readPreference: 'primary',
};

/**
 * One MongoClient and the collections behind the Mongo adapters. Every write is acknowledged by a majority
 * of the replica set (journaled) before it resolves, so an acknowledged sign-up survives a failover.
 */
export class MongoStore {
  readonly users: Collection<UserDocument>;
  readonly events: Collection<EventDocument>;
  /** Per e-mail: failed sign-ins since the last successful one; removed by a TTL index 24 h after the last failure. */
  readonly signInFailures: Collection<SignInFailuresDocument>;
  readonly health: Collection<HealthDocument>;

  constructor(
    private readonly client: MongoClient,
    readonly db: Db,
    private readonly eventRetentionDays = 90,
  ) {
    this.users = db.collection<UserDocument>('users');
    this.events = db.collection<EventDocument>('events');
    this.signInFailures = db.collection<SignInFailuresDocument>('sign-in-failures');
    this.health = db.collection<HealthDocument>('health');
  }

  /** Creates the client without any I/O; the driver connects on first use. */
  static create(settings: MongoSettings): MongoStore {
    const client = new MongoClient(settings.uri, {
      appName: 'account-service',
      serverSelectionTimeoutMS: settings.serverSelectionTimeoutMS ?? 5_000,
      connectTimeoutMS: 5_000,
      socketTimeoutMS: 30_000,
      retryWrites: true,
      retryReads: true,
      writeConcern: { w: 'majority', journal: true },
      readPreference: 'primary',
    });
    return new MongoStore(client, client.db(settings.dbName), settings.eventRetentionDays);
  }

  /** Creates the client, then `start()`s it; closes the client again when that fails. */
  static async open(settings: MongoSettings): Promise<MongoStore> {
    const store = MongoStore.create(settings);
    try {
      await store.start();
    } catch (error) {
      await store.close();
      throw error instanceof MongoServerSelectionError ? new MongoUnreachable(settings, error) : error;
    }
    return store;
  }

  /** Refuses a standalone server (StandaloneMongoServer), then creates the indexes. Idempotent. */
  async start(): Promise<void> {
    assertSupportsTransactions(await this.db.admin().command({ hello: 1 }));
    await this.users.createIndexes(USER_INDEXES);
    await this.events.createIndexes(EVENT_INDEXES);
    await this.events.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0, name: 'events-retention-ttl' });
    await this.signInFailures.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0, name: 'sign-in-failures-ttl' });
    await this.db.collection('sessions').createIndexes(SESSION_INDEXES);
    await this.db.collection('outbox').createIndexes(OUTBOX_INDEXES);
  }

  /** Runs `work` in one majority transaction, retried by the driver on transient errors; returns its result. */
  async transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = this.client.startSession();
    try {
      return await session.withTransaction(work, TRANSACTION);
    } finally {
      await session.endSession();
    }
  }

  /** Appends events inside the session's transaction, in order; an eventId already stored is left as it is. */
  async appendEvents(events: readonly RecordedEvent[], session: ClientSession): Promise<void> {
    for (const event of events) {
      const { eventId, ...document } = toEventDocument(event);
      const rest = TTL_EVENT_TYPES.has(event.type)
        ? { ...document, expiresAt: new Date(event.occurredAt.getTime() + this.eventRetentionDays * DAY_MS) }
        : document;
      const written = await this.events.updateOne({ eventId }, { $setOnInsert: rest }, { session, upsert: true });
      if (written.upsertedCount === 1 && needsMail(event)) {
        await this.db.collection<OutboxDocument>('outbox').insertOne({ _id: eventId, ...newEntry(eventId), createdAt: event.occurredAt }, { session });
      }
      if (written.upsertedCount === 1) await this.trackSignInFailures(event, session);
    }
  }

  /** Keeps the per-e-mail record of failed sign-ins (see sign-in-failures.ts) in the same transaction as the event. */
  private async trackSignInFailures(event: RecordedEvent, session: ClientSession): Promise<void> {
    const email = event.payload.email;
    if (event.type === 'UserSignedIn') await this.signInFailures.deleteOne({ _id: email }, { session });
    if (event.type !== 'SignInFailed') return;
    const current = await this.signInFailures.findOne({ _id: email }, { session });
    const times = nextFailures(current?.times, event) ?? [];
    await this.signInFailures.updateOne({ _id: email }, { $set: { times, expiresAt: new Date(event.occurredAt.getTime() + MAX_TRACKED_AGE_MS) } }, { session, upsert: true });
  }

  /** Closes the connection pool. Idempotent. */
  close(): Promise<void> {
    return this.client.close();
  }
}
