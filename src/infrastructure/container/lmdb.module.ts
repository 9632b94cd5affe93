import { ContainerModule } from 'inversify';
import { EVENT_LOG } from '../../application/ports/event-log.port.js';
import { STORE_HEALTH } from '../../application/ports/store-health.port.js';
import { USER_REPOSITORY } from '../../application/ports/user-repository.port.js';
import { LmdbEventLog } from '../lmdb/lmdb-event-log.js';
import { LmdbStore } from '../lmdb/lmdb-store.js';
import { LmdbUserRepository } from '../lmdb/lmdb-user.repository.js';
import { LmdbStoreHealth } from '../lmdb/lmdb-store-health.js';

/** STORAGE=lmdb (default): an embedded, transactional, persistent store under DATA_DIR. */
export const lmdbModule = (store: LmdbStore) =>
  new ContainerModule(({ bind }) => {
    bind(LmdbStore).toConstantValue(store);
    bind(USER_REPOSITORY).to(LmdbUserRepository).inSingletonScope();
    bind(EVENT_LOG).to(LmdbEventLog).inSingletonScope();
    bind(STORE_HEALTH).to(LmdbStoreHealth).inSingletonScope();
  });
