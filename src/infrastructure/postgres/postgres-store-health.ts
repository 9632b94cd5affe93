import { ServiceUnavailable } from '../../application/errors.js';
import type { StoreHealth } from '../../application/ports/store-health.port.js';
import { STORE_RETRY_AFTER_SECONDS, type PostgresStore } from './postgres-store.js';

/** Healthy when the server answers and commits a write to the `store_health` table. */
export class PostgresStoreHealth implements StoreHealth {
  constructor(private readonly store: PostgresStore) {}

  async check(): Promise<void> {
    try {
      await this.store.query(
        `INSERT INTO store_health (id, checked_at) VALUES ('service', now()) ON CONFLICT (id) DO UPDATE SET checked_at = EXCLUDED.checked_at`,
      );
    } catch {
      throw new ServiceUnavailable('store_unavailable', STORE_RETRY_AFTER_SECONDS);
    }
  }
}
