import type { Ports } from '../../application/ports/ports.js';
import type { EventPruner } from './retention.js';
import { ClosingStore, type Store } from './store.js';
import { SealingStore } from './sealing-store.js';
import { USERS } from './account-tables.js';
import { DIRECTORY, type DirectoryEntry } from './directory-tables.js';
import type { PersonalDataKeys } from '../security/personal-data-keys.js';
import { CORE_SCHEMA, type Schema } from './ownership.js';

export type { Schema } from './ownership.js';

/** The keys personal data is sealed under at rest; a storage opened without them keeps it in clear (the unit tests' world). */
export type StorageKeys = PersonalDataKeys | undefined;
import { StoreAttemptLimits } from './store-attempt-limits.js';
import { StoreEventLog } from './store-event-log.js';
import { StoreOutbox } from './store-outbox.js';
import { StoreSessionRepository } from './store-session.repository.js';
import { StoreSessionReadModel, StoreUserReadModel } from './store-read-models.js';
import { StoreUserRepository } from './store-user.repository.js';

/** The ports every storage technology implements over one store, by their names in `Ports`. */
export const STORAGE_PORTS = ['users', 'userViews', 'sessionViews', 'events', 'sessions', 'outbox', 'limits', 'storeHealth'] as const satisfies ReadonlyArray<keyof Ports>;

export type StoragePortName = (typeof STORAGE_PORTS)[number];

export interface StoreSizes {
  /** Bytes the store uses on disk; null when it cannot be read. */
  readonly sizeBytes: number | null;
  /** Bytes free on the filesystem beside it; null when it cannot be measured. */
  readonly freeBytes: number | null;
}

/**
 * One storage technology, opened: what each technology's `openStorage(config)` returns (memory/, lmdb/, mongo/).
 * The adapters of the storage ports share one store, so that a user, its session and its events commit together;
 * the optional capabilities are what only some stores have, asked for by presence rather than by store class.
 */
export interface Storage extends Pick<Ports, StoragePortName> {
  /** The storage primitive every kind of state is written over (store.ts). */
  readonly store: Store;
  /** Removes old events as RETENTION says; absent in memory (which forgets everything anyway). */
  readonly pruner?: EventPruner;
  /** The store's size and the free disk beside it, for the metrics; absent where there is no local file. */
  readonly sizes?: () => StoreSizes;
  /** Releases the store (handles, pools). Idempotent. */
  readonly close: () => Promise<void>;
  /** Refuses, before anything is served, keys other than those the store's data is sealed under (SealingStore.verifyKey). */
  readonly verifyKeys: () => Promise<void>;
}

/** The sealing store over a technology's, told which table holds the accounts and how they are listed. */
export const sealingStoreOver = (technology: Store, keys: PersonalDataKeys): SealingStore =>
  new SealingStore(technology, keys, { accounts: USERS, listing: { table: DIRECTORY, index: 'byListing', accountOf: (entry) => (entry as DirectoryEntry).userId } });

/**
 * The storage ports written once over the storage primitive, whatever the technology under it, and their `close`:
 * the store behind them refuses new work once closing and is closed by `closeStore` only after the work it let in
 * has settled (ClosingStore); with `keys`, it keeps personal data sealed at rest (SealingStore).
 */
export const portsOver = (
  technology: Store,
  closeStore: () => Promise<void>,
  keys?: StorageKeys,
  schema: Schema = CORE_SCHEMA,
): Pick<Storage, 'store' | 'close' | 'verifyKeys' | Exclude<StoragePortName, 'storeHealth'>> => {
  const sealing = keys ? sealingStoreOver(technology, keys) : undefined;
  const store = new ClosingStore(sealing ?? technology, closeStore, schema.projections);
  return {
  store,
  close: () => store.close(),
  verifyKeys: () => sealing?.verifyKey() ?? Promise.resolve(),
  limits: new StoreAttemptLimits(store),
  users: new StoreUserRepository(store, schema),
  userViews: new StoreUserReadModel(store, schema),
  sessionViews: new StoreSessionReadModel(store),
  sessions: new StoreSessionRepository(store),
  events: new StoreEventLog(store),
  outbox: new StoreOutbox(store),
  };
};
