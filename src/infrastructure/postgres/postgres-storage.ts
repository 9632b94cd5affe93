import { type Schema, type Storage, type StorageKeys, portsOver } from '../storage/storage.js';
import { StoreEventPruner } from '../storage/store-event-pruner.js';
import { PostgresStoreHealth } from './postgres-store-health.js';
import { PostgresStore } from './postgres-store.js';
import { PostgresTables } from './postgres-tables.js';

export interface PostgresStorageConfig {
  readonly storage: { readonly postgres: { readonly url: string | undefined; readonly timeoutMs?: number; readonly poolSize?: number } };
}

/**
 * PostgreSQL behind every storage port (STORAGE=postgres, DATABASE_URL), with the retention pruner; no size metrics.
 * Rejects with PostgresUnreachable when the server does not answer or refuses the schema.
 */
export async function openStorage({ storage: { postgres } }: PostgresStorageConfig, keys?: StorageKeys, schema?: Schema): Promise<Storage> {
  const store = await PostgresStore.open({
    url: postgres.url ?? '',
    ...(postgres.timeoutMs === undefined ? {} : { timeoutMs: postgres.timeoutMs }),
    ...(postgres.poolSize === undefined ? {} : { maxConnections: postgres.poolSize }),
  });
  const ports = portsOver(new PostgresTables(store), () => store.close(), keys, schema);
  return { ...ports, pruner: new StoreEventPruner(ports.store), storeHealth: new PostgresStoreHealth(store) };
}
