import type { StoreHealth } from '../../application/ports/store-health.port.js';

/** Memory is always reachable and writable. */
export class InMemoryStoreHealth implements StoreHealth {
  check(): Promise<void> {
    return Promise.resolve();
  }
}
