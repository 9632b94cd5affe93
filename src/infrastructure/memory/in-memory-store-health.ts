import { ServiceUnavailable } from '../../application/errors.js';
import type { StoreHealth } from '../../application/ports/store-health.port.js';
import type { InMemoryTables } from './in-memory-tables.js';

/** Healthy while the in-memory store is open; refuses once it is closed, like a store whose handle is gone. */
export class InMemoryStoreHealth implements StoreHealth {
  constructor(private readonly store: InMemoryTables) {}

  async check(): Promise<void> {
    await Promise.resolve();
    if (this.store.closed) throw new ServiceUnavailable('store_unavailable', 5);
  }
}
