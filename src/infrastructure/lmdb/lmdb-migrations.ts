import type { Database, Key } from 'lmdb';
import { ACCOUNT_VIEWS, EMAIL_CLAIM, ENDED_EPOCHS, SESSIONS, type SessionRecord, UNVERIFIED_ACCOUNTS, USERS, type UserRecord, accountViewOf } from '../storage/account-tables.js';
import { CLAIMS, COUNTERS, claimKey } from '../storage/commit-plan.js';
import { EVENTS, OUTBOX } from '../storage/event-tables.js';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { OutboxEntry } from '../storage/outbox-entry.js';
import type { LmdbStore } from './lmdb-store.js';
import type { LmdbTables } from './lmdb-tables.js';
import type { Table } from '../storage/store.js';

/** The layout before the storage primitive: a user's instants as epoch milliseconds. */
type OldUser = Omit<UserRecord, 'createdAt'> & { readonly createdAt: number; readonly version?: number };
type OldSession = { readonly [K in keyof SessionRecord]: SessionRecord[K] extends Date ? number : SessionRecord[K] extends Date | null ? number | null : SessionRecord[K] } & { readonly version: number };

/** The event log's databases before the storage primitive: events by sequence number, the outbox by its event's. */
const RETIRED_LOG = ['events', 'events-by-id', 'events-by-email', 'events-by-aggregate', 'outbox', 'outbox-due', 'retention'];

/** Databases of the layout before the storage primitive, emptied once their records moved into its tables. */
const RETIRED = ['users', 'users-by-email', 'sessions', 'live-sessions-by-user', 'live-sessions-by-use', 'sessions-ended-epochs', 'sessions-by-expiry', 'sessions-by-user', 'sign-in-failures', 'mail-requests'];

/** The instants of a session as the older layout kept them (epoch ms, or null), as Dates again. */
const sessionRecord = ({ version: _version, ...old }: OldSession): SessionRecord => {
  const dates = (['createdAt', 'lastUsedAt', 'absoluteExpiresAt', 'expiresAt', 'rotatedAt', 'revokedAt'] as const).map((field) => [field, old[field] === null ? null : new Date(old[field])]);
  return { ...old, ...Object.fromEntries(dates) } as SessionRecord;
};

/**
 * Moves the accounts and sessions of an environment written before the storage primitive into its tables (users with
 * their e-mail claims and versions, sessions with their versions and indexes, an ended-epoch marker for each account
 * past epoch 0), then its event log, and completes what later versions of the tables added. Each step is one write
 * transaction with its mark, so a crash leaves the older layout whole. Idempotent: a no-op once done, and on a new
 * environment.
 */
export async function migrateToTables(store: LmdbStore, tables: LmdbTables): Promise<void> {
  const state = store.root.openDB<number, string>({ name: 'migrations' });
  /** Runs `move` once per environment, then empties the databases it retired, in one write transaction with its mark. */
  const once = async (step: string, prepared: readonly Table<never>[], retired: readonly Database<unknown, Key>[], move: () => void): Promise<void> => {
    if (state.get(step) === 1) return;
    tables.prepare(prepared);
    await store.transaction(() => {
      move();
      for (const db of retired) for (const key of [...db.getKeys()]) void db.remove(key);
      void state.put(step, 1);
    });
  };
  const old = (names: readonly string[]) => names.map((name) => store.root.openDB<unknown, string>({ name }));

  const accounts = old(RETIRED);
  const [users, , sessions] = accounts as unknown as [Database<OldUser, string>, unknown, Database<OldSession, string>];
  await once('tables', [USERS, SESSIONS, ENDED_EPOCHS, CLAIMS], accounts, () => {
    for (const { key, value } of users.getRange()) {
      const { version, createdAt, ...user } = value;
      tables.importInTransaction(USERS, key, { ...user, createdAt: new Date(createdAt) }, version ?? 0);
      tables.importInTransaction(CLAIMS, claimKey(EMAIL_CLAIM, user.email), { owner: key }, 0);
      if ((user.sessionEpoch ?? 0) > 0) tables.importInTransaction(ENDED_EPOCHS, key, { userId: key, epoch: user.sessionEpoch ?? 0 }, 0);
    }
    for (const { key, value } of sessions.getRange()) tables.importInTransaction(SESSIONS, key, sessionRecord(value), value.version);
  });

  // Tables written by the first versions of the primitive: accounts get their view, and the records of the tables that
  // expire get their `expires` entries (their expiries had a database of their own, `x:<name>`).
  const expiring = [SESSIONS, COUNTERS] as Table<unknown>[];
  const expiries = expiring.map((table) => store.root.openDB<string, Buffer>({ name: `x:${table.name}`, keyEncoding: 'binary' }));
  await once('complete-tables', [ACCOUNT_VIEWS, ...expiring], expiries, () => {
    for (const { key, value } of tables.recordsOf(USERS)) if (!tables.hasInTransaction(ACCOUNT_VIEWS, key)) tables.importInTransaction(ACCOUNT_VIEWS, key, accountViewOf(value), 0);
    for (const table of expiring) for (const { key, value, version } of tables.recordsOf(table)) tables.importInTransaction(table, key, value, version);
  });

  // The event log and the outbox keep their order: an old sequence number n becomes the place `a` + n (before every
  // place given since, `b…`).
  const log = old(RETIRED_LOG);
  const [events, , , , outbox] = log as unknown as [Database<RecordedEvent & { occurredAt: number; seq: number }, number>, unknown, unknown, unknown, Database<OutboxEntry, number>];
  const place = (seq: number) => `a${seq.toString(16).padStart(12, '0')}`;
  await once('events', [EVENTS, OUTBOX], log, () => {
    for (const { key, value } of events.getRange()) {
      const { seq: _seq, occurredAt, ...event } = value;
      tables.importInTransaction(EVENTS, event.eventId, { ...event, occurredAt: new Date(occurredAt), seq: place(key) }, 0);
    }
    for (const { key, value } of outbox.getRange()) tables.importInTransaction(OUTBOX, value.eventId, { ...value, seq: place(key) }, 0);
  });

  // The marker the unverified-account sweep reads, for every account written before markers existed.
  await once('unverified-accounts', [UNVERIFIED_ACCOUNTS], [], () => {
    for (const { key, value } of tables.recordsOf(USERS)) {
      if (value.emailVerified !== true && !tables.hasInTransaction(UNVERIFIED_ACCOUNTS, key)) tables.importInTransaction(UNVERIFIED_ACCOUNTS, key, { userId: key, createdAt: value.createdAt.getTime() }, 0);
    }
  });
}
