import { InMemoryEventLog } from '../../src/infrastructure/memory/in-memory-event-log.js';
import { InMemoryStore } from '../../src/infrastructure/memory/in-memory-store.js';
import { InMemoryUserRepository } from '../../src/infrastructure/memory/in-memory-user.repository.js';
import { type StorageFactory, eventLogContract, userRepositoryContract } from './storage.contract.js';

const memory: StorageFactory = () => {
  const store = new InMemoryStore();
  return Promise.resolve({ users: new InMemoryUserRepository(store), events: new InMemoryEventLog(store), dispose: () => Promise.resolve() });
};

userRepositoryContract('in-memory', memory);
eventLogContract('in-memory', memory);
