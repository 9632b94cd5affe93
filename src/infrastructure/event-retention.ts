import type { Logger } from 'pino';
import type { Clock } from '../application/ports/clock.port.js';
import type { EventPruner } from './storage/retention.js';

export interface RetentionSettings {
  readonly retentionDays: number;
  readonly intervalMs: number;
  readonly batchSize: number;
  readonly maxBatches: number;
}

const DAY_MS = 86_400_000;
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Enforces the retention in bounded batches on a timer that never keeps the process alive. */
export class EventRetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly pruner: EventPruner,
    private readonly clock: Clock,
    private readonly settings: RetentionSettings,
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
  ) {}

  /** One sweep: batches until nothing old is left or `maxBatches` ran, yielding to requests in between. Returns the number removed. */
  async sweepOnce(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.settings.retentionDays * DAY_MS);
    let removed = 0;
    for (let batch = 0; batch < this.settings.maxBatches; batch++) {
      const result = await this.pruner.pruneBatch(cutoff, this.settings.batchSize);
      removed += result.removed;
      if (result.done) break;
      await yieldToRequests();
    }
    return removed;
  }

  start(): void {
    this.timer ??= setInterval(() => {
      if (this.running) return;
      this.running = this.sweepOnce()
        .then((removed) => {
          if (removed > 0) this.logger.info({ removed }, 'old events removed (EVENT_RETENTION_DAYS)');
          return removed;
        })
        .catch((error: unknown) => {
          this.logger.warn({ err: error }, 'event retention sweep failed; the next one retries');
          return 0;
        })
        .finally(() => (this.running = undefined));
    }, this.settings.intervalMs).unref();
  }

  /** Stops the timer and waits for a sweep in progress. Idempotent. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
