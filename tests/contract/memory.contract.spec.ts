import { InMemoryEventLog } from '../../src/infrastructure/memory/in-memory-event-log.js';
import { InMemoryStoreHealth } from '../../src/infrastructure/memory/in-memory-store-health.js';
import { InMemoryStore } from '../../src/infrastructure/memory/in-memory-store.js';
import { InMemoryUserRepository } from '../../src/infrastructure/memory/in-memory-user.repository.js';
import { type StorageFactory, eventLogContract, storeHealthContract, userRepositoryContract } from './storage.contract.js';

const memory: StorageFactory = () => {
  const store = new InMemoryStore();
  return Promise.resolve({ users: new InMemoryUserRepository(store), events: new InMemoryEventLog(store), health: new InMemoryStoreHealth(), dispose: () => Promise.resolve() });
};

userRepositoryContract('in-memory', memory);
eventLogContract('in-memory', memory);
storeHealthContract('in-memory', memory);
