import { ServiceUnavailable } from '../../application/errors.js';

export interface LimiterStats {
  readonly running: number;
  readonly queued: number;
  readonly shed: number;
}

/** The one refusal, built once: a shed costs no stack capture (it is answered, never logged as a fault). */
const OVERLOADED = new ServiceUnavailable('overloaded', 1);

/**
 * Runs at most `concurrency` tasks at once and queues at most `maxQueue` more; past that it sheds
 * at once with ServiceUnavailable('overloaded') instead of letting latency and memory grow without bound.
 */
export class ConcurrencyLimiter {
  private running = 0;
  private shedCount = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxQueue: number,
    private readonly onShed: (stats: LimiterStats) => void = () => undefined,
  ) {}

  /**
   * Throws ServiceUnavailable('overloaded'), counted as shed, when a task started now would be shed; returns
   * otherwise. Lets a caller refuse work before spending anything on it.
   */
  admit(): void {
    if (this.running >= this.concurrency && this.waiting.length >= this.maxQueue) this.shed();
  }

  /** Refuses a task that a limiter elsewhere had no room for (the primary's, under WORKERS): counted as shed here. */
  shed(): never {
    this.shedCount += 1;
    this.onShed(this.stats());
    throw OVERLOADED;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    this.admit();
    if (this.running >= this.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  stats(): LimiterStats {
    return { running: this.running, queued: this.waiting.length, shed: this.shedCount };
  }
}
