import { memoryStorage } from '../support/storages.js';
import { storeContract } from './store.contract.js';
import { secondFactorContract } from './second-factor.contract.js';
import { passkeyContract } from './passkey.contract.js';
import { outboxContract } from './outbox.contract.js';
import { readModelContract } from './read-model.contract.js';
import { sessionRepositoryContract } from './session-repository.contract.js';
import { eventLogContract, storeHealthContract, userRepositoryContract } from './storage.contract.js';

userRepositoryContract('in-memory', memoryStorage);
eventLogContract('in-memory', memoryStorage);
storeHealthContract('in-memory', memoryStorage);
readModelContract('in-memory', memoryStorage);
sessionRepositoryContract('in-memory', memoryStorage);
outboxContract('in-memory', memoryStorage);
storeContract('in-memory', memoryStorage);
secondFactorContract('in-memory', memoryStorage);
passkeyContract('in-memory', memoryStorage);
