import { StartupError, dataDirFailure, ensureWritableDataDir } from '../config/startup-checks.js';
import { type Storage, type StorageKeys, portsOver } from '../storage/storage.js';
import { StoreEventPruner } from '../storage/store-event-pruner.js';
import { migrateToTables } from './lmdb-migrations.js';
import { openShared } from './lmdb-store-lock.js';
import { LmdbStoreHealth } from './lmdb-store-health.js';
import { LmdbStore } from './lmdb-store.js';
import { LmdbTables } from './lmdb-tables.js';
import { freeBytes } from './lmdb-write-failures.js';

export interface LmdbStorageConfig {
  readonly storage: { readonly dataDir: string; readonly minFreeBytes: number };
}

/** Registers this process as one that has the store open; refuses, on one line, while `npm run store:compact` runs. */
const registerOpener = (dataDir: string): (() => void) => {
  try {
    return openShared(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== undefined) throw dataDirFailure(dataDir, 'the store\'s list of openers cannot be written', error);
    throw new StartupError('DATA_DIR', dataDir, (error as Error).message);
  }
};

const openStore = (dataDir: string, minFreeBytes: number): LmdbStore => {
  try {
    return LmdbStore.open(dataDir, minFreeBytes);
  } catch (error) {
    throw dataDirFailure(dataDir, 'the LMDB store cannot be opened', error);
  }
};

/**
 * The embedded store in DATA_DIR (STORAGE=lmdb, the default), behind every storage port, with the retention pruner
 * and the size metrics. Throws a DATA_DIR failure naming the cause when the directory is not writable, or while
 * `npm run store:compact` holds the store (lmdb-store-lock.ts).
 */
export async function openStorage({ storage: { dataDir, minFreeBytes } }: LmdbStorageConfig, keys?: StorageKeys): Promise<Storage> {
  ensureWritableDataDir(dataDir);
  const unregister = registerOpener(dataDir);
  let store: LmdbStore;
  try {
    store = openStore(dataDir, minFreeBytes);
  } catch (error) {
    unregister();
    throw error;
  }
  const close = () => store.close().finally(unregister);
  const tables = new LmdbTables(store);
  try {
    await migrateToTables(store, tables);
  } catch (error) {
    await close();
    throw dataDirFailure(dataDir, 'the LMDB store cannot be re-indexed', error);
  }
  const ports = portsOver(tables, close, keys);
  return {
    ...ports,
    storeHealth: new LmdbStoreHealth(store),
    pruner: new StoreEventPruner(ports.store),
    sizes: () => ({ sizeBytes: store.sizeBytes(), freeBytes: freeBytes(store.dataDir) }),
  };
}
