import type { Logger } from 'pino';
import { type PeriodicJob, inBoundedBatches } from './periodic-job.js';

/**
 * Erases, in bounded batches, the accounts whose address nobody proved within UNVERIFIED_ACCOUNT_TTL (the use case
 * decides; a TTL of 0 erases nothing), on every store.
 */
export class UnverifiedAccountSweepJob implements PeriodicJob {
  readonly name = 'unverified-account sweep';

  constructor(
    private readonly sweep: { execute(limit: number): Promise<number> },
    readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'info'>,
    private readonly batchSize = 100,
  ) {}

  async runOnce(): Promise<void> {
    const erased = await inBoundedBatches(20, async () => {
      const count = await this.sweep.execute(this.batchSize);
      return { removed: count, done: count < this.batchSize };
    });
    if (erased > 0) this.logger.info({ erased }, 'unverified accounts past UNVERIFIED_ACCOUNT_TTL erased');
  }
}
