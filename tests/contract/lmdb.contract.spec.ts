import { rmSync } from 'node:fs';
import { LmdbEventLog } from '../../src/infrastructure/lmdb/lmdb-event-log.js';
import { LmdbStoreHealth } from '../../src/infrastructure/lmdb/lmdb-store-health.js';
import { LmdbStore } from '../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbUserRepository } from '../../src/infrastructure/lmdb/lmdb-user.repository.js';
import { tempDir } from '../support/test-service.js';
import { type StorageFactory, eventLogContract, storeHealthContract, userRepositoryContract } from './storage.contract.js';

const lmdb: StorageFactory = () => {
  const dir = tempDir('lmdb-contract');
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

userRepositoryContract('lmdb', lmdb);
eventLogContract('lmdb', lmdb);
storeHealthContract('lmdb', lmdb);
