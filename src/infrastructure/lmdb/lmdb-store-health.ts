import { ServiceUnavailable } from '../../application/errors.js';
import type { StoreHealth } from '../../application/ports/store-health.port.js';
import type { LmdbStore } from './lmdb-store.js';
import { STORE_RETRY_AFTER_SECONDS, freeBytes } from './lmdb-write-failures.js';

/**
 * Healthy when a write transaction commits, no commit failed within the last 10 s (a nearly full disk refuses
 * some writes and accepts small ones), and the filesystem has at least MIN_FREE_DISK_BYTES free.
 */
export class LmdbStoreHealth implements StoreHealth {
  constructor(private readonly store: LmdbStore) {}

  async check(): Promise<void> {
    const recentFailure = this.store.writeFailures.recent();
    if (recentFailure !== null) throw new ServiceUnavailable('store_unavailable', STORE_RETRY_AFTER_SECONDS, new Error(`a commit failed recently: ${recentFailure}`));
    const free = freeBytes(this.store.dataDir);
    if (free !== null && free < this.store.minFreeBytes) {
      throw new ServiceUnavailable('store_unavailable', STORE_RETRY_AFTER_SECONDS, new Error(`low disk: ${free} bytes free, MIN_FREE_DISK_BYTES is ${this.store.minFreeBytes}`));
    }
    try {
      await this.store.touch();
    } catch (error) {
      throw error instanceof ServiceUnavailable ? error : new ServiceUnavailable('store_unavailable', STORE_RETRY_AFTER_SECONDS, error);
    }
  }
}
