import { TooManyAttempts } from '../../domain/domain-error.js';
import type { Limit, LimitAt } from '../ports/attempt-limits.port.js';
import type { RecordedEvent } from '../ports/event-log.port.js';
import type { Ports } from '../ports/ports.js';

export interface SignInThrottleSettings {
  /** Failed sign-ins for one e-mail within the window after which further attempts are refused. */
  readonly maxFailures: number;
  readonly windowSeconds: number;
}

/** Seconds until `retryAt`, at least 1 (a Retry-After). */
export const secondsUntil = (retryAt: Date, now: Date): number => Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));

/**
 * Per-account throttling, held in the store so that it holds across instances. A failed sign-in is counted in the
 * write that records it, conditionally (AttemptLimits.take): of N simultaneous wrong attempts on one e-mail exactly
 * `maxFailures` are answered as such and recorded, the others are refused as throttled; a right password is accepted
 * only while fewer failures are counted, so a burst of guesses tests at most `maxFailures` of them. A success forgets
 * the count. A throttle, not a lockout: nobody can lock a victim out for longer than the window.
 */
export class SignInThrottle {
  constructor(
    private readonly deps: Pick<Ports, 'limits' | 'clock'>,
    private readonly settings: SignInThrottleSettings,
  ) {}

  /** Resolves while the normalised e-mail may try to sign in; throws TooManyAttempts otherwise. One record read. */
  async check(email: string): Promise<void> {
    const now = this.deps.clock.now();
    const reached = await this.deps.limits.check(this.limitOf(email), now);
    if (reached) throw new TooManyAttempts(secondsUntil(reached.retryAt, now));
  }

  /**
   * Records a failed sign-in (`failed`, its SignInFailed event) counted against the cap, in one write; throws
   * TooManyAttempts, recording nothing, when the cap was reached meanwhile.
   */
  async failed(email: string, failed: readonly RecordedEvent[]): Promise<void> {
    const now = this.deps.clock.now();
    const reached = await this.deps.limits.take(this.limitOf(email), now, failed);
    if (reached) throw new TooManyAttempts(secondsUntil(reached.retryAt, now));
  }

  /**
   * Records a wrong second-factor code after the right password (`failed`), counted against the e-mail's cap and
   * against `also` (the challenge's own cap) in one write: 'counted'; 'also' when `also` was at its cap (nothing
   * recorded); throws TooManyAttempts, recording nothing, when the e-mail's cap was reached.
   */
  async failedAlong(email: string, also: Limit, failed: readonly RecordedEvent[]): Promise<'counted' | 'also'> {
    const now = this.deps.clock.now();
    const reached = await this.deps.limits.take([also, this.limitOf(email)], now, failed);
    if (!reached) return 'counted';
    if (reached.key === also.key) return 'also';
    throw new TooManyAttempts(secondsUntil(reached.retryAt, now));
  }

  /** Forgets the failures counted for the e-mail: its owner just proved the password. */
  succeeded(email: string): Promise<void> {
    return this.deps.limits.clear(this.limitOf(email).key);
  }

  /**
   * The e-mail's limit as it stands now, for the commit that records a sign-in: it is refused when the cap was reached
   * meanwhile, and empties the count otherwise, together with what it records.
   */
  limitNow(email: string): LimitAt {
    return { ...this.limitOf(email), at: this.deps.clock.now() };
  }

  private limitOf(email: string): Limit {
    return { key: `sign-in:${email}`, max: this.settings.maxFailures, windowSeconds: this.settings.windowSeconds };
  }
}
