import type { Logger } from 'pino';
import type { Clock } from '../application/ports/clock.port.js';
import type { SessionRepository } from '../application/ports/session-repository.port.js';

export interface SweepSettings {
  readonly intervalMs: number;
  /** Sessions removed per batch; the sweep yields to requests between batches. */
  readonly batchSize: number;
  /** At most this many batches per sweep, so one sweep is bounded however far behind it is. */
  readonly maxBatches: number;
}

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Removes ended sessions in bounded batches, on a timer that never keeps the process alive. */
export class SessionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
    private readonly settings: SweepSettings,
    private readonly logger: Pick<Logger, 'warn' | 'debug'>,
  ) {}

  /** One sweep: batches until one comes back short or `maxBatches` ran. Returns how many sessions it removed. */
  async sweepOnce(): Promise<number> {
    let removed = 0;
    for (let batch = 0; batch < this.settings.maxBatches; batch++) {
      const count = await this.sessions.removeExpired(this.clock.now(), this.settings.batchSize);
      removed += count;
      if (count < this.settings.batchSize) break;
      await yieldToRequests();
    }
    return removed;
  }

  start(): void {
    this.timer ??= setInterval(() => {
      if (this.running) return;
      this.running = this.sweepOnce()
        .then((removed) => {
          if (removed > 0) this.logger.debug({ removed }, 'ended sessions swept');
          return removed;
        })
        .catch((error: unknown) => {
          this.logger.warn({ err: error }, 'session sweep failed; the next one retries');
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
