import type { Logger } from 'pino';
import type { Clock } from '../../application/ports/clock.port.js';
import { type AnyTable, type Store, sweepExpired } from '../storage/store.js';
import { type PeriodicJob, inBoundedBatches } from './periodic-job.js';

/**
 * Removes the records of every table that expires (the schema's `expiringTables`: the conditional counters, ...) once their time
 * passed, in bounded batches, on every store: requests for random addresses cannot grow the store for ever. MongoDB's
 * TTL monitor does the same there.
 */
export class ExpirySweepJob implements PeriodicJob {
  readonly name = 'expiry sweep';

  constructor(
    private readonly store: Store,
    private readonly tables: readonly AnyTable[],
    private readonly clock: Clock,
    readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'debug'>,
    private readonly batchSize = 500,
  ) {}

  async runOnce(): Promise<void> {
    for (const table of this.tables) {
      const removed = await inBoundedBatches(100, async () => {
        const count = await sweepExpired(this.store, table, this.clock.now().getTime(), this.batchSize);
        return { removed: count, done: count < this.batchSize };
      });
      if (removed > 0) this.logger.debug({ table: table.name, removed }, 'expired records swept');
    }
  }
}
