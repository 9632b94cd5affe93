import type { Logger } from 'pino';
import type { Clock } from '../../application/ports/clock.port.js';
import type { SessionRepository } from '../../application/ports/session-repository.port.js';
import { type PeriodicJob, inBoundedBatches } from './periodic-job.js';

export interface SweepSettings {
  readonly intervalMs: number;
  /** Sessions removed per batch; the sweep yields to requests between batches. */
  readonly batchSize: number;
  /** At most this many batches per sweep, so one sweep is bounded however far behind it is. */
  readonly maxBatches: number;
}

/**
 * Removes ended sessions in bounded batches: past a deadline, or revoked (from their revocation on, so a signed-out
 * session is gone by the next sweep). MongoDB's TTL indexes do the same; the sweep is harmless there.
 */
export class SessionSweepJob implements PeriodicJob {
  readonly name = 'session sweep';
  readonly intervalMs: number;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
    private readonly settings: SweepSettings,
    private readonly logger: Pick<Logger, 'debug'>,
  ) {
    this.intervalMs = settings.intervalMs;
  }

  async runOnce(): Promise<void> {
    const removed = await this.sweep();
    if (removed > 0) this.logger.debug({ removed }, 'ended sessions swept');
  }

  /** One sweep: batches until one comes back short or `maxBatches` ran. Returns how many sessions it removed. */
  sweep(): Promise<number> {
    const { batchSize, maxBatches } = this.settings;
    return inBoundedBatches(maxBatches, async () => {
      const removed = await this.sessions.removeExpired(this.clock.now(), batchSize);
      return { removed, done: removed < batchSize };
    });
  }
}
