import { rmSync } from 'node:fs';
import { openStorage as openLmdbStorage } from '../../src/infrastructure/lmdb/lmdb-storage.js';
import { openStorage as openMemoryStorage } from '../../src/infrastructure/memory/memory-storage.js';
import type { StorageFactory } from '../contract/storage.contract.js';
import { tempDir } from './test-service.js';
import { PersonalDataKeys } from '../../src/infrastructure/security/personal-data-keys.js';
import { TEST_SCHEMA } from './test-schema.js';

/** The keys the contract suites' stores seal personal data under, as the service's do. */
export const TEST_PERSONAL_DATA_KEYS = new PersonalDataKeys(Buffer.alloc(32, 5));

/** A fresh in-memory store behind every storage port, opened as the service opens it. */
export const memoryStorage: StorageFactory = async () => {
  const storage = await openMemoryStorage(undefined, TEST_PERSONAL_DATA_KEYS, TEST_SCHEMA);
  return { ...storage, health: storage.storeHealth, closeStore: () => storage.close(), dispose: () => storage.close() };
};

/** A fresh LMDB environment in a temporary directory, opened as the service opens it, deleted on dispose. */
export const lmdbStorage: StorageFactory = async () => {
  const dir = tempDir('lmdb-contract');
  const storage = await openLmdbStorage({ storage: { dataDir: dir, minFreeBytes: 0 } }, TEST_PERSONAL_DATA_KEYS, TEST_SCHEMA);
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
