import { inject, injectable } from 'inversify';
import { ServiceUnavailable } from '../../application/errors.js';
import type { StoreHealth } from '../../application/ports/store-health.port.js';
import { LmdbStore } from './lmdb-store.js';

/** Healthy when a write transaction commits (the environment is open and the disk accepts writes). */
@injectable()
export class LmdbStoreHealth implements StoreHealth {
  constructor(@inject(LmdbStore) private readonly store: LmdbStore) {}

  async check(): Promise<void> {
    try {
      await this.store.touch();
    } catch {
      throw new ServiceUnavailable('store_unavailable', 5);
    }
  }
}
