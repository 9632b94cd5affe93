import { type Storage, portsOver } from '../storage/storage.js';
import { MongoEventLog } from './mongo-event-log.js';
import { migrateToTables } from './mongo-migrations.js';
import { MongoOutbox } from './mongo-outbox.js';
import { MongoStoreHealth } from './mongo-store-health.js';
import { MongoStore } from './mongo-store.js';
import { MongoTables } from './mongo-tables.js';

export interface MongoStorageConfig {
  readonly storage: { readonly mongodb: { readonly uri: string | undefined; readonly dbName: string; readonly timeoutMs: number } };
  readonly retention: { readonly days: number };
}

/**
 * MongoDB behind every storage port (STORAGE=mongodb). Retention is MongoDB's own TTL index (no pruner); no size
 * metrics. Rejects with MongoUnreachable when no writable primary answers in time.
 */
export async function openStorage({ storage: { mongodb }, retention }: MongoStorageConfig): Promise<Storage> {
  const store = await MongoStore.open({ uri: mongodb.uri ?? '', dbName: mongodb.dbName, operationTimeoutMS: mongodb.timeoutMs, eventRetentionDays: retention.days });
  const tables = new MongoTables(store);
  try {
    await migrateToTables(store, tables);
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    ...portsOver(tables),
    events: new MongoEventLog(store),
    outbox: new MongoOutbox(store),
    storeHealth: new MongoStoreHealth(store),
    close: () => store.close(),
  };
}
