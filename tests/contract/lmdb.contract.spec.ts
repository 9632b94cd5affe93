import { lmdbStorage } from '../support/storages.js';
import { storeContract } from './store.contract.js';
import { secondFactorContract } from './second-factor.contract.js';
import { passkeyContract } from './passkey.contract.js';
import { outboxContract } from './outbox.contract.js';
import { readModelContract } from './read-model.contract.js';
import { sessionRepositoryContract } from './session-repository.contract.js';
import { eventLogContract, storeHealthContract, userRepositoryContract } from './storage.contract.js';

userRepositoryContract('lmdb', lmdbStorage);
eventLogContract('lmdb', lmdbStorage);
storeHealthContract('lmdb', lmdbStorage);
readModelContract('lmdb', lmdbStorage);
sessionRepositoryContract('lmdb', lmdbStorage);
outboxContract('lmdb', lmdbStorage);
storeContract('lmdb', lmdbStorage);
secondFactorContract('lmdb', lmdbStorage);
passkeyContract('lmdb', lmdbStorage);
