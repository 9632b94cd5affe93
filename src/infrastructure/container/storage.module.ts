import { ContainerModule, type Newable } from 'inversify';
import { EVENT_LOG, type EventLog } from '../../application/ports/event-log.port.js';
import { OUTBOX, type Outbox } from '../../application/ports/outbox.port.js';
import { SESSION_REPOSITORY, type SessionRepository } from '../../application/ports/session-repository.port.js';
import { STORE_HEALTH, type StoreHealth } from '../../application/ports/store-health.port.js';
import { USER_READ_MODEL, type UserReadModel } from '../../application/ports/user-read-model.port.js';
import { USER_REPOSITORY, type UserRepository } from '../../application/ports/user-repository.port.js';
import { portBinder } from './bind-port.js';

/** One storage technology: its opened store and the adapter classes that implement the storage ports over it. */
export interface StorageAdapters<Store extends object> {
  readonly store: Store;
  readonly storeClass: Newable<Store>;
  readonly users: Newable<UserRepository>;
  readonly userViews: Newable<UserReadModel>;
  readonly events: Newable<EventLog>;
  readonly sessions: Newable<SessionRepository>;
  readonly outbox: Newable<Outbox>;
  readonly health: Newable<StoreHealth>;
  /** Releases the store (handles, pools). Idempotent. */
  close(): Promise<void>;
}

/** Binds the storage ports to one technology's adapters; the adapters get the store through `@inject(storeClass)`. */
export const storageModule = <Store extends object>(adapters: StorageAdapters<Store>) =>
  new ContainerModule(({ bind }) => {
    const port = portBinder(bind);
    bind<Store>(adapters.storeClass).toConstantValue(adapters.store);
    port.adapter(USER_REPOSITORY, adapters.users);
    port.adapter(USER_READ_MODEL, adapters.userViews);
    port.adapter(EVENT_LOG, adapters.events);
    port.adapter(SESSION_REPOSITORY, adapters.sessions);
    port.adapter(OUTBOX, adapters.outbox);
    port.adapter(STORE_HEALTH, adapters.health);
  });
