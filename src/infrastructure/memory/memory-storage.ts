import { StoreAttemptLimits } from '../storage/store-attempt-limits.js';
import type { Storage } from '../storage/storage.js';
import { InMemoryEventLog } from './in-memory-event-log.js';
import { InMemoryOutbox } from './in-memory-outbox.js';
import { InMemorySessionRepository } from './in-memory-session.repository.js';
import { InMemoryStoreHealth } from './in-memory-store-health.js';
import { InMemoryStore } from './in-memory-store.js';
import { InMemoryTables } from './in-memory-tables.js';
import { InMemoryUserReadModel } from './in-memory-user-read-model.js';
import { InMemoryUserRepository } from './in-memory-user.repository.js';

/** The in-memory adapters of every storage port over `store` (the in-memory test world uses it too). */
export const memoryStorageOver = (store: InMemoryStore): Storage => {
  const tables = new InMemoryTables(store);
  return {
    store: tables,
    limits: new StoreAttemptLimits(tables),
    users: new InMemoryUserRepository(store),
    userViews: new InMemoryUserReadModel(store),
    events: new InMemoryEventLog(store),
    sessions: new InMemorySessionRepository(store),
    outbox: new InMemoryOutbox(store),
    storeHealth: new InMemoryStoreHealth(store),
    close: () => store.close(),
  };
};

/** A fresh in-memory store behind every storage port (STORAGE=memory): nothing is written to disk, nothing pruned. */
export const openStorage = (): Promise<Storage> => Promise.resolve(memoryStorageOver(new InMemoryStore()));
