import { ContainerModule } from 'inversify';
import { EVENT_LOG } from '../../application/ports/event-log.port.js';
import { OUTBOX } from '../../application/ports/outbox.port.js';
import { SESSION_REPOSITORY } from '../../application/ports/session-repository.port.js';
import { STORE_HEALTH } from '../../application/ports/store-health.port.js';
import { USER_READ_MODEL } from '../../application/ports/user-read-model.port.js';
import { USER_REPOSITORY } from '../../application/ports/user-repository.port.js';
import type { Storage } from '../storage/storage.js';
import { portBinder } from './bind-port.js';
import { STORAGE } from './tokens.js';

/** Binds the storage ports to the adapters of one opened storage technology (see `openStorage` in memory/, lmdb/, mongo/). */
export const storageModule = (storage: Storage) =>
  new ContainerModule(({ bind }) => {
    const port = portBinder(bind);
    port.constant(STORAGE, storage);
    port.constant(USER_REPOSITORY, storage.users);
    port.constant(USER_READ_MODEL, storage.userViews);
    port.constant(EVENT_LOG, storage.events);
    port.constant(SESSION_REPOSITORY, storage.sessions);
    port.constant(OUTBOX, storage.outbox);
    port.constant(STORE_HEALTH, storage.health);
  });
