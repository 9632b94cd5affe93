import { rmSync } from 'node:fs';
import { openStorage as openLmdbStorage } from '../../src/infrastructure/lmdb/lmdb-storage.js';
import { openStorage as openMemoryStorage } from '../../src/infrastructure/memory/memory-storage.js';
import type { StorageFactory } from '../contract/storage.contract.js';
import { tempDir } from './test-service.js';

/** A fresh in-memory store behind every storage port, opened as the service opens it. */
export const memoryStorage: StorageFactory = async () => {
  const storage = await openMemoryStorage();
  return { ...storage, health: storage.storeHealth, closeStore: () => storage.close(), dispose: () => storage.close() };
};

/** A fresh LMDB environment in a temporary directory, opened as the service opens it, deleted on dispose. */
export const lmdbStorage: StorageFactory = async () => {
  const dir = tempDir('lmdb-contract');
  const storage = await openLmdbStorage({ storage: { dataDir: dir, minFreeBytes: 0 } });
  return {
    ...storage,
    health: storage.storeHealth,
    closeStore: () => storage.close(),
    dispose: async () => {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
