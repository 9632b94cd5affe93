import { rmSync } from 'node:fs';
import { LmdbEventLog } from '../../src/infrastructure/lmdb/lmdb-event-log.js';
import { LmdbOutbox } from '../../src/infrastructure/lmdb/lmdb-outbox.js';
import { LmdbSessionRepository } from '../../src/infrastructure/lmdb/lmdb-session.repository.js';
import { LmdbStoreHealth } from '../../src/infrastructure/lmdb/lmdb-store-health.js';
import { LmdbStore } from '../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbUserReadModel } from '../../src/infrastructure/lmdb/lmdb-user-read-model.js';
import { LmdbUserRepository } from '../../src/infrastructure/lmdb/lmdb-user.repository.js';
import { InMemoryEventLog } from '../../src/infrastructure/memory/in-memory-event-log.js';
import { InMemoryOutbox } from '../../src/infrastructure/memory/in-memory-outbox.js';
import { InMemorySessionRepository } from '../../src/infrastructure/memory/in-memory-session.repository.js';
import { InMemoryStoreHealth } from '../../src/infrastructure/memory/in-memory-store-health.js';
import { InMemoryStore } from '../../src/infrastructure/memory/in-memory-store.js';
import { InMemoryUserReadModel } from '../../src/infrastructure/memory/in-memory-user-read-model.js';
import { InMemoryUserRepository } from '../../src/infrastructure/memory/in-memory-user.repository.js';
import type { StorageFactory } from '../contract/storage.contract.js';
import { tempDir } from './test-service.js';

/** A fresh in-memory store behind every storage port. */
export const memoryStorage: StorageFactory = () => {
  const store = new InMemoryStore();
  return Promise.resolve({
    users: new InMemoryUserRepository(store),
    userViews: new InMemoryUserReadModel(store),
    events: new InMemoryEventLog(store),
    sessions: new InMemorySessionRepository(store),
    outbox: new InMemoryOutbox(store),
    health: new InMemoryStoreHealth(store),
    closeStore: () => store.close(),
    dispose: () => store.close(),
  });
};

/** A fresh LMDB environment in a temporary directory, deleted on dispose. */
export const lmdbStorage: StorageFactory = () => {
  const dir = tempDir('lmdb-contract');
  const store = LmdbStore.open(dir);
  let closing: Promise<void> | undefined;
  const closeStore = () => (closing ??= store.close());
  return Promise.resolve({
    users: new LmdbUserRepository(store),
    userViews: new LmdbUserReadModel(store),
    events: new LmdbEventLog(store),
    sessions: new LmdbSessionRepository(store),
    outbox: new LmdbOutbox(store),
    health: new LmdbStoreHealth(store),
    closeStore,
    dispose: async () => {
      await closeStore();
      rmSync(dir, { recursive: true, force: true });
    },
  });
};
