import type { Logger } from 'pino';
import type { Clock } from '../application/ports/clock.port.js';
import type { UserEventType } from '../domain/user.js';

/**
 * High-volume events removed once older than EVENT_RETENTION_DAYS. Every other type (UserRegistered, PasswordChanged,
 * EmailVerified, PasswordReset, ProfileChanged, SessionRevoked, RefreshTokenReused, PasswordRehashed) defines or
 * explains an account and is kept. A mail event is removed only once its outbox entry is gone (sent or given up).
 */
export const PRUNABLE_EVENT_TYPES: ReadonlySet<UserEventType> = new Set<UserEventType>([
  'SignInFailed',
  'UserSignedIn',
  'SessionStarted',
  'PasswordResetRequested',
  'EmailVerificationRequested',
]);

export interface PruneBatch {
  /** Old events looked at in this batch (removed or kept). */
  readonly examined: number;
  readonly removed: number;
  /** True when no event older than the cutoff is left to look at. */
  readonly done: boolean;
}

/** Removes old events of the prunable types, one bounded batch (one write transaction) at a time. */
export interface EventPruner {
  pruneBatch(cutoff: Date, limit: number): Promise<PruneBatch>;
}

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
