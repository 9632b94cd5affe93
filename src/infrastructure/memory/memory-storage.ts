import { type Storage, portsOver } from '../storage/storage.js';
import { InMemoryStoreHealth } from './in-memory-store-health.js';
import { InMemoryTables } from './in-memory-tables.js';

/** Every storage port over one in-memory store (the in-memory test world passes its own, to look into it). */
export const memoryStorageOver = (tables = new InMemoryTables()): Storage => ({
  ...portsOver(tables),
  storeHealth: new InMemoryStoreHealth(tables),
  close: () => tables.close(),
});

/** A fresh in-memory store behind every storage port (STORAGE=memory): nothing is written to disk, nothing pruned. */
export const openStorage = (): Promise<Storage> => Promise.resolve(memoryStorageOver());
