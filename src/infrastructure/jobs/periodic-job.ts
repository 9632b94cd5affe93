/** Work the service repeats on a timer (sweeps, retention, mail delivery); the JobRunner runs every one. */
export interface PeriodicJob {
  /** Names the job in logs. */
  readonly name: string;
  /** Time between the starts of two runs; a run still going when the next is due makes that one skip. */
  readonly intervalMs: number;
  /**
   * One bounded run. Rejects when the run failed: the runner logs it and the next tick tries again, so a job need
   * not catch what it cannot handle. Must be safe to run again after a failure (every job here is idempotent).
   */
  runOnce(): Promise<void>;
}

export interface BatchResult {
  readonly removed: number;
  /** True when nothing is left for this run. */
  readonly done: boolean;
}

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `batch` until one reports done or `maxBatches` ran, yielding to requests in between, so one run is bounded
 * however far behind it is. Returns how many the batches removed in all; throws what a batch throws.
 */
export async function inBoundedBatches(maxBatches: number, batch: () => Promise<BatchResult>): Promise<number> {
  let removed = 0;
  for (let count = 0; count < maxBatches; count++) {
    const result = await batch();
    removed += result.removed;
    if (result.done) break;
    await yieldToRequests();
  }
  return removed;
}
