import { type Storage, portsOver } from '../storage/storage.js';
import { InMemoryEventLog } from './in-memory-event-log.js';
import { InMemoryOutbox } from './in-memory-outbox.js';
import { InMemoryStoreHealth } from './in-memory-store-health.js';
import { InMemoryStore } from './in-memory-store.js';
import { InMemoryTables } from './in-memory-tables.js';

/** The in-memory adapters of every storage port over `store` (the in-memory test world uses it too). */
export const memoryStorageOver = (store: InMemoryStore, tables = new InMemoryTables(store)): Storage => ({
  ...portsOver(tables),
  events: new InMemoryEventLog(store),
  outbox: new InMemoryOutbox(store),
  storeHealth: new InMemoryStoreHealth(store),
  close: () => store.close(),
});

/** A fresh in-memory store behind every storage port (STORAGE=memory): nothing is written to disk, nothing pruned. */
export const openStorage = (): Promise<Storage> => Promise.resolve(memoryStorageOver(new InMemoryStore()));
