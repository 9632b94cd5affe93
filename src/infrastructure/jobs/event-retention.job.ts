import type { Logger } from 'pino';
import type { Clock } from '../../application/ports/clock.port.js';
import type { EventPruner } from '../storage/retention.js';
import { type PeriodicJob, inBoundedBatches } from './periodic-job.js';

export interface RetentionSettings {
  readonly retentionDays: number;
  readonly intervalMs: number;
  readonly batchSize: number;
  readonly maxBatches: number;
}

const DAY_MS = 86_400_000;

/** Enforces EVENT_RETENTION_DAYS (see RETENTION) in bounded batches, on a store that has a pruner. */
export class EventRetentionJob implements PeriodicJob {
  readonly name = 'event retention sweep';
  readonly intervalMs: number;

  constructor(
    private readonly pruner: EventPruner,
    private readonly clock: Clock,
    private readonly settings: RetentionSettings,
    private readonly logger: Pick<Logger, 'info'>,
  ) {
    this.intervalMs = settings.intervalMs;
  }

  async runOnce(): Promise<void> {
    const removed = await this.sweep();
    if (removed > 0) this.logger.info({ removed }, 'old events removed (EVENT_RETENTION_DAYS)');
  }

  /** One sweep: batches until nothing old is left or `maxBatches` ran. Returns the number of events removed. */
  sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.settings.retentionDays * DAY_MS);
    return inBoundedBatches(this.settings.maxBatches, () => this.pruner.pruneBatch(cutoff, this.settings.batchSize));
  }
}
