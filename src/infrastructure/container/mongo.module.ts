import { ContainerModule } from 'inversify';
import { EVENT_LOG } from '../../application/ports/event-log.port.js';
import { STORE_HEALTH } from '../../application/ports/store-health.port.js';
import { USER_REPOSITORY } from '../../application/ports/user-repository.port.js';
import { MongoEventLog } from '../mongo/mongo-event-log.js';
import { MongoStoreHealth } from '../mongo/mongo-store-health.js';
import { MongoStore } from '../mongo/mongo-store.js';
import { MongoUserRepository } from '../mongo/mongo-user.repository.js';

/** STORAGE=mongodb (or MONGODB_URI set): a MongoDB replica set, users and events written in one transaction. */
export const mongoModule = (store: MongoStore) =>
  new ContainerModule(({ bind }) => {
    bind(MongoStore).toConstantValue(store);
    bind(USER_REPOSITORY).to(MongoUserRepository).inSingletonScope();
    bind(EVENT_LOG).to(MongoEventLog).inSingletonScope();
    bind(STORE_HEALTH).to(MongoStoreHealth).inSingletonScope();
  });
