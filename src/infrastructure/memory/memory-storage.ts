import { type Schema, type Storage, type StorageKeys, portsOver } from '../storage/storage.js';
import type { Store } from '../storage/store.js';
import { InMemoryStoreHealth } from './in-memory-store-health.js';
import { InMemoryTables } from './in-memory-tables.js';

/**
 * Every storage port over one in-memory store (the in-memory test world passes its own, to look into it, and may
 * pass `store`: the same tables behind a wrapper that orders their calls).
 */
export const memoryStorageOver = (tables = new InMemoryTables(), store: Store = tables, keys?: StorageKeys, schema?: Schema): Storage => ({
  ...portsOver(store, () => tables.close(), keys, schema),
  storeHealth: new InMemoryStoreHealth(tables),
});

/** A fresh in-memory store behind every storage port (STORAGE=memory): nothing is written to disk, nothing pruned. */
export const openStorage = (_config?: unknown, keys?: StorageKeys, schema?: Schema): Promise<Storage> => Promise.resolve(memoryStorageOver(undefined, undefined, keys, schema));
