import { ContainerModule } from 'inversify';
import { PORT_TOKENS, type Ports } from '../../application/ports/ports.js';
import type { StoreHealth } from '../../application/ports/store-health.port.js';
import { STORAGE_PORTS, type Storage, type StoragePortName } from '../storage/storage.js';
import { type BindPort, portBinder } from './bind-port.js';
import { STORAGE } from './tokens.js';

export interface StorageOverrides {
  /** Replaces the store's own health check (tests simulate an unreachable store with it). */
  readonly storeHealth?: StoreHealth | undefined;
}

const bindStoragePort = <K extends StoragePortName>(bindPort: BindPort, adapters: Pick<Ports, StoragePortName>, name: K) =>
  bindPort(PORT_TOKENS[name], () => adapters[name]);

/** Binds the storage ports to the adapters of one opened storage technology (its `openStorage` in memory/, lmdb/, mongo/). */
export const storageModule = (opened: Storage, overrides: StorageOverrides = {}) =>
  new ContainerModule(({ bind }) => {
    const bindPort = portBinder(bind);
    const storage: Storage = overrides.storeHealth ? { ...opened, storeHealth: overrides.storeHealth } : opened;
    bindPort(STORAGE, () => storage);
    for (const name of STORAGE_PORTS) bindStoragePort(bindPort, storage, name);
  });
