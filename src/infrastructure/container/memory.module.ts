import { ContainerModule } from 'inversify';
import { EVENT_LOG } from '../../application/ports/event-log.port.js';
import { STORE_HEALTH } from '../../application/ports/store-health.port.js';
import { USER_REPOSITORY } from '../../application/ports/user-repository.port.js';
import { InMemoryEventLog } from '../memory/in-memory-event-log.js';
import { InMemoryStore } from '../memory/in-memory-store.js';
import { InMemoryUserRepository } from '../memory/in-memory-user.repository.js';
import { InMemoryStoreHealth } from '../memory/in-memory-store-health.js';

/** STORAGE=memory: nothing survives a restart; for tests and demos. */
export const memoryModule = () =>
  new ContainerModule(({ bind }) => {
    bind(InMemoryStore).toConstantValue(new InMemoryStore());
    bind(USER_REPOSITORY).to(InMemoryUserRepository).inSingletonScope();
    bind(EVENT_LOG).to(InMemoryEventLog).inSingletonScope();
    bind(STORE_HEALTH).toConstantValue(new InMemoryStoreHealth());
  });
