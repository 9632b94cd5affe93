import { ServiceUnavailable } from '../../application/errors.js';
import type { StoreHealth } from '../../application/ports/store-health.port.js';
import { STORE_RETRY_AFTER_SECONDS } from './mongo-errors.js';
import type { MongoStore } from './mongo-store.js';

/** Healthy when the primary answers a ping and acknowledges a majority write to the `health` collection. */
export class MongoStoreHealth implements StoreHealth {
  constructor(private readonly store: MongoStore) {}

  async check(): Promise<void> {
    try {
      await this.store.guarded(async (signal) => {
        await this.store.db.command({ ping: 1 }, { signal });
        await this.store.health.updateOne({ _id: 'service' }, { $set: { checkedAt: new Date() } }, { upsert: true });
      });
    } catch {
      throw new ServiceUnavailable('store_unavailable', STORE_RETRY_AFTER_SECONDS);
    }
  }
}
