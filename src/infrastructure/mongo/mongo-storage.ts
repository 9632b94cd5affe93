import type { Storage } from '../storage/storage.js';
import { MongoEventLog } from './mongo-event-log.js';
import { MongoOutbox } from './mongo-outbox.js';
import { MongoSessionRepository } from './mongo-session.repository.js';
import { MongoStoreHealth } from './mongo-store-health.js';
import { MongoStore } from './mongo-store.js';
import { MongoTables } from './mongo-tables.js';
import { StoreAttemptLimits } from '../storage/store-attempt-limits.js';
import { MongoUserReadModel } from './mongo-user-read-model.js';
import { MongoUserRepository } from './mongo-user.repository.js';

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
  return {
    store: tables,
    limits: new StoreAttemptLimits(tables),
    users: new MongoUserRepository(store),
    userViews: new MongoUserReadModel(store),
    events: new MongoEventLog(store),
    sessions: new MongoSessionRepository(store),
    outbox: new MongoOutbox(store),
    storeHealth: new MongoStoreHealth(store),
    close: () => store.close(),
  };
}
