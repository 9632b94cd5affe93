import { dataDirFailure } from '../config/startup-checks.js';
import { type Schema, type Storage, type StorageKeys, portsOver } from '../storage/storage.js';
import { asOpener } from '../storage/store-lock.js';
import { StoreEventPruner } from '../storage/store-event-pruner.js';
import { migrateToTables } from './lmdb-migrations.js';
import { LmdbStoreHealth } from './lmdb-store-health.js';
import { LmdbStore } from './lmdb-store.js';
import { LmdbTables } from './lmdb-tables.js';
import { freeBytes } from './lmdb-write-failures.js';

export interface LmdbStorageConfig {
  readonly storage: { readonly dataDir: string; readonly minFreeBytes: number };
}

const openStore = (dataDir: string, minFreeBytes: number): LmdbStore => {
  try {
    return LmdbStore.open(dataDir, minFreeBytes);
  } catch (error) {
    throw dataDirFailure(dataDir, 'the LMDB store cannot be opened', error);
  }
};

/**
 * The embedded store in DATA_DIR (STORAGE=lmdb, the default), behind every storage port, with the retention pruner and
 * the size metrics. Throws a DATA_DIR failure naming the cause: not writable, or `npm run store:compact` running.
 */
export async function openStorage({ storage: { dataDir, minFreeBytes } }: LmdbStorageConfig, keys?: StorageKeys, schema?: Schema): Promise<Storage> {
  const [store, unregister] = asOpener(dataDir, () => openStore(dataDir, minFreeBytes));
  const tables = new LmdbTables(store);
  try {
    await migrateToTables(store, tables);
  } catch (error) {
    await store.close().finally(unregister);
    throw dataDirFailure(dataDir, 'the LMDB store cannot be re-indexed', error);
  }
  const ports = portsOver(tables, () => store.close().finally(unregister), keys, schema);
  return {
    ...ports,
    storeHealth: new LmdbStoreHealth(store),
    pruner: new StoreEventPruner(ports.store),
    sizes: () => ({ sizeBytes: store.sizeBytes(), freeBytes: freeBytes(store.dataDir) }),
  };
}
