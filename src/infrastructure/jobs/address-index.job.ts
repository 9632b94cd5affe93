import type { Logger } from 'pino';
import { indexListedAccounts } from '../storage/address-index.js';
import type { Store } from '../storage/store.js';
import { type PeriodicJob, inBoundedBatches } from './periodic-job.js';

/**
 * Gives the accounts listed in the directory and not yet in the admin search's address index their entry (those
 * listed before the index existed, and accounts older than the directory at their next sign-in), in bounded batches
 * from where the last run stopped: after the first run nothing is opened again (storage/address-index.ts).
 */
export class AddressIndexJob implements PeriodicJob {
  readonly name = 'address index';

  constructor(
    private readonly store: Store,
    readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'debug'>,
    private readonly batchSize = 500,
  ) {}

  async runOnce(): Promise<void> {
    const looked = await inBoundedBatches(100, async () => {
      const count = await indexListedAccounts(this.store, this.batchSize);
      return { removed: count, done: count < this.batchSize };
    });
    if (looked > 0) this.logger.debug({ looked }, 'directory entries taken into the address index');
  }
}
