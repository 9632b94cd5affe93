import { rmSync } from 'node:fs';
import { LmdbEventLog } from '../../src/infrastructure/lmdb/lmdb-event-log.js';
import { LmdbStoreHealth } from '../../src/infrastructure/lmdb/lmdb-store-health.js';
import { LmdbStore } from '../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbUserRepository } from '../../src/infrastructure/lmdb/lmdb-user.repository.js';
import { InMemoryEventLog } from '../../src/infrastructure/memory/in-memory-event-log.js';
import { InMemoryStoreHealth } from '../../src/infrastructure/memory/in-memory-store-health.js';
import { InMemoryStore } from '../../src/infrastructure/memory/in-memory-store.js';
import { InMemoryUserRepository } from '../../src/infrastructure/memory/in-memory-user.repository.js';
import { tempDir } from '../support/test-service.js';
import { readModelContract } from './read-model.contract.js';
import type { StorageFactory } from './storage.contract.js';

const memory: StorageFactory = () => {
  const store = new InMemoryStore();
  return Promise.resolve({ users: new InMemoryUserRepository(store), events: new InMemoryEventLog(store), health: new InMemoryStoreHealth(), dispose: () => Promise.resolve() });
};

const lmdb: StorageFactory = () => {
  const dir = tempDir('lmdb-read-model');
  const store = LmdbStore.open(dir);
  return Promise.resolve({
    users: new LmdbUserRepository(store),
    events: new LmdbEventLog(store),
    health: new LmdbStoreHealth(store),
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
};

readModelContract('in-memory', memory);
readModelContract('lmdb', lmdb);
