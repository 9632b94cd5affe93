import { type Schema, type Storage, type StorageKeys, portsOver } from '../storage/storage.js';
import { StoreEventPruner } from '../storage/store-event-pruner.js';
import { migrateToTables } from './mongo-migrations.js';
import { MongoStoreHealth } from './mongo-store-health.js';
import { MongoStore } from './mongo-store.js';
import { MongoTables } from './mongo-tables.js';

export interface MongoStorageConfig {
  readonly storage: { readonly mongodb: { readonly uri: string | undefined; readonly dbName: string; readonly timeoutMs: number } };
}

/**
 * MongoDB behind every storage port (STORAGE=mongodb), with the retention pruner; no size metrics. Rejects with
 * MongoUnreachable when no writable primary answers in time.
 */
export async function openStorage({ storage: { mongodb } }: MongoStorageConfig, keys?: StorageKeys, schema?: Schema): Promise<Storage> {
  const store = await MongoStore.open({ uri: mongodb.uri ?? '', dbName: mongodb.dbName, operationTimeoutMS: mongodb.timeoutMs });
  const tables = new MongoTables(store);
  try {
    await migrateToTables(store, tables);
  } catch (error) {
    await store.close();
    throw error;
  }
  const ports = portsOver(tables, () => store.close(), keys, schema);
  return { ...ports, pruner: new StoreEventPruner(ports.store), storeHealth: new MongoStoreHealth(store) };
}
