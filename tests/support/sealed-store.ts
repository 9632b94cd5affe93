import { PersonalDataKeys, personalDataSecret } from '../../src/infrastructure/security/personal-data-keys.js';
import { sealingStoreOver } from '../../src/infrastructure/storage/storage.js';
import type { Store } from '../../src/infrastructure/storage/store.js';

/**
 * `store` (a service's store, opened by a test) read as the service reads it: personal data opened with the key the
 * service generated in `dataDir` (no PERSONAL_DATA_KEY in the tests' environment).
 */
export const readable = (store: Store, dataDir: string): Store =>
  sealingStoreOver(store, new PersonalDataKeys(personalDataSecret({ configured: undefined, dataDir, production: false, ephemeral: false })));
