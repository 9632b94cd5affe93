import type { Database } from 'lmdb';
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

/** Databases of the layout before the storage primitive, emptied once their records moved into its tables. */
const RETIRED = ['users', 'users-by-email', 'sessions', 'live-sessions-by-user', 'live-sessions-by-use', 'sessions-ended-epochs', 'sessions-by-expiry', 'sessions-by-user', 'sign-in-failures', 'mail-requests'];

/** The instants of a session as the older layout kept them (epoch ms, or null), as Dates again. */
const sessionRecord = (old: OldSession): SessionRecord => {
  const dates = (['createdAt', 'lastUsedAt', 'absoluteExpiresAt', 'expiresAt', 'rotatedAt', 'revokedAt'] as const).map((field) => [field, old[field] === null ? null : new Date(old[field])]);
  return { ...old, ...Object.fromEntries(dates) } as SessionRecord;
};

/**
 * Moves the accounts and sessions of an environment written before the storage primitive into its tables (users with
 * their e-mail claims and versions, sessions with their versions and indexes, an ended-epoch marker for each account
 * past epoch 0), then empties the retired databases: one write transaction, so a crash leaves the old layout whole.
 * Idempotent: a no-op once done, and on a new environment.
 */
export async function migrateToTables(store: LmdbStore, tables: LmdbTables): Promise<void> {
  const state = store.root.openDB<number, string>({ name: 'migrations' });
  await moveAccounts(store, tables, state);
  await completeTables(store, tables, state);
  await moveEvents(store, tables, state);
  await markUnverified(store, tables, state);
}

/** Writes the marker the unverified-account sweep reads for every account written before markers existed that has none. */
async function markUnverified(store: LmdbStore, tables: LmdbTables, state: Database<number, string>): Promise<void> {
  if (state.get('unverified-accounts') === 1) return;
  tables.prepare([UNVERIFIED_ACCOUNTS]);
  await store.transaction(() => {
    for (const { key, value } of tables.recordsOf(USERS)) {
      if (value.emailVerified !== true && !tables.hasInTransaction(UNVERIFIED_ACCOUNTS, key)) {
        tables.importInTransaction(UNVERIFIED_ACCOUNTS, key, { userId: key, createdAt: value.createdAt.getTime() }, 0);
      }
    }
    void state.put('unverified-accounts', 1);
  });
}

async function moveAccounts(store: LmdbStore, tables: LmdbTables, state: Database<number, string>): Promise<void> {
  if (state.get('tables') === 1) return;
  const retired = RETIRED.map((name) => store.root.openDB<unknown, string>({ name }));
  const [users, , sessions] = retired as [Database<OldUser, string>, unknown, Database<OldSession, string>];
  tables.prepare([USERS, SESSIONS, ENDED_EPOCHS, CLAIMS]);
  await store.transaction(() => {
    for (const { key, value } of users.getRange()) {
      const { version, createdAt, ...user } = value;
      tables.importInTransaction(USERS, key, { ...user, createdAt: new Date(createdAt) }, version ?? 0);
      tables.importInTransaction(CLAIMS, claimKey(EMAIL_CLAIM, user.email), { owner: key }, 0);
      if ((user.sessionEpoch ?? 0) > 0) tables.importInTransaction(ENDED_EPOCHS, key, { userId: key, epoch: user.sessionEpoch ?? 0 }, 0);
    }
    for (const { key, value } of sessions.getRange()) {
      const { version, ...session } = value;
      tables.importInTransaction(SESSIONS, key, sessionRecord(session as OldSession), version);
    }
    for (const db of retired) for (const key of [...db.getKeys()]) void db.remove(key);
    void state.put('tables', 1);
  });
}

/** Writes the account view of every account that has none (the tables of an environment written before views existed). */
/**
 * Tables written by the first versions of the primitive: accounts get their view, and the records of the tables that
 * expire their `expires` entries (their expiries had a database of their own, `x:<name>`, emptied).
 */
async function completeTables(store: LmdbStore, tables: LmdbTables, state: Database<number, string>): Promise<void> {
  if (state.get('complete-tables') === 1) return;
  const expiring = [SESSIONS, COUNTERS] as Table<unknown>[];
  const retired = expiring.map((table) => store.root.openDB<string, Buffer>({ name: `x:${table.name}`, keyEncoding: 'binary' }));
  tables.prepare([ACCOUNT_VIEWS, ...expiring]);
  await store.transaction(() => {
    for (const { key, value } of tables.recordsOf(USERS)) if (!tables.hasInTransaction(ACCOUNT_VIEWS, key)) tables.importInTransaction(ACCOUNT_VIEWS, key, accountViewOf(value), 0);
    for (const table of expiring) for (const { key, value, version } of tables.recordsOf(table)) tables.importInTransaction(table, key, value, version);
    for (const db of retired) for (const key of [...db.getKeys()]) void db.remove(key);
    void state.put('complete-tables', 1);
  });
}

/** The event log's databases before the storage primitive: events by sequence number, the outbox by its event's. */
const RETIRED_LOG = ['events', 'events-by-id', 'events-by-email', 'events-by-aggregate', 'outbox', 'outbox-due', 'retention'];

/**
 * Moves the event log and the outbox of the older layout into EVENTS and OUTBOX, in one write transaction, keeping
 * their order: an old sequence number n becomes the place `a` + n (before every place given since, `b…`).
 */
async function moveEvents(store: LmdbStore, tables: LmdbTables, state: Database<number, string>): Promise<void> {
  if (state.get('events') === 1) return;
  const retired = RETIRED_LOG.map((name) => store.root.openDB<unknown, number>({ name }));
  const [events, , , , outbox] = retired as [Database<RecordedEvent & { occurredAt: number; seq: number }, number>, unknown, unknown, unknown, Database<OutboxEntry, number>];
  const place = (seq: number) => `a${seq.toString(16).padStart(12, '0')}`;
  tables.prepare([EVENTS, OUTBOX]);
  await store.transaction(() => {
    for (const { key, value } of events.getRange()) {
      const { seq: _seq, occurredAt, ...event } = value;
      tables.importInTransaction(EVENTS, event.eventId, { ...event, occurredAt: new Date(occurredAt), seq: place(key) }, 0);
    }
    for (const { key, value } of outbox.getRange()) tables.importInTransaction(OUTBOX, value.eventId, { ...value, seq: place(key) }, 0);
    for (const db of retired) for (const key of [...db.getKeys()]) void db.remove(key);
    void state.put('events', 1);
  });
}
