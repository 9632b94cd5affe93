import type { Logger } from 'pino';
import type { PeriodicJob } from './periodic-job.js';

/** What calls a job's tick every interval; returns how to stop it. The runner's clock, so tests tick it by hand. */
export interface Ticker {
  every(intervalMs: number, tick: () => void): () => void;
}

/** Node's timers, unref-ed: a job's timer never keeps the process alive. */
export const NODE_TICKER: Ticker = {
  every(intervalMs, tick) {
    const timer = setInterval(tick, intervalMs).unref();
    return () => clearInterval(timer);
  },
};

/**
 * Runs every periodic job of the service from one list: one timer per job that never keeps the process alive, at
 * most one run of a job at a time, a failed run logged (never thrown) and retried by the next tick.
 */
export class JobRunner {
  private readonly timers = new Map<PeriodicJob, () => void>();
  private readonly running = new Map<PeriodicJob, Promise<void>>();

  constructor(
    private readonly jobs: readonly PeriodicJob[],
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly ticker: Ticker = NODE_TICKER,
  ) {}

  /** Starts the timer of every job; the first runs come one interval later. Idempotent. */
  start(): void {
    for (const job of this.jobs) {
      if (this.timers.has(job)) continue;
      const tick = () => {
        if (!this.running.has(job)) void this.launch(job);
      };
      this.timers.set(job, this.ticker.every(job.intervalMs, tick));
    }
  }

  /**
   * Runs `job` now, after the run in flight if there is one (so that what was due when called is done when this
   * resolves). Resolves when the run is over; never rejects (a failure is logged).
   */
  async runNow(job: PeriodicJob): Promise<void> {
    for (let inFlight = this.running.get(job); inFlight; inFlight = this.running.get(job)) await inFlight;
    await this.launch(job);
  }

  /** Stops every timer and waits for the runs in flight. Idempotent. */
  async stop(): Promise<void> {
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  private launch(job: PeriodicJob): Promise<void> {
    const run = job
      .runOnce()
      .catch((error: unknown) => this.logger.warn({ err: error, job: job.name }, `${job.name} failed; the next run retries`))
      .finally(() => this.running.delete(job));
    this.running.set(job, run);
    return run;
  }
}
