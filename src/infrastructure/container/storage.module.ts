import { ContainerModule } from 'inversify';
import { PORT_TOKENS, type Ports } from '../../application/ports/ports.js';
import { STORAGE_PORTS, type Storage, type StoragePortName } from '../storage/storage.js';
import { type BindPort, portBinder } from './bind-port.js';
import { STORAGE } from './tokens.js';

const bindStoragePort = <K extends StoragePortName>(bindPort: BindPort, adapters: Pick<Ports, StoragePortName>, name: K) =>
  bindPort(PORT_TOKENS[name], () => adapters[name]);

/** Binds the storage ports to the adapters of one opened storage technology (its `openStorage` in memory/, lmdb/, mongo/). */
export const storageModule = (storage: Storage) =>
  new ContainerModule(({ bind, isBound }) => {
    const bindPort = portBinder(bind, isBound);
    bindPort(STORAGE, () => storage);
    for (const name of STORAGE_PORTS) bindStoragePort(bindPort, storage, name);
  });
