import { TooManyAttempts } from '../../domain/domain-error.js';
import type { Ports } from '../ports/ports.js';

export interface SignInThrottleSettings {
  /** Failed sign-ins for one e-mail within the window after which further attempts are refused. */
  readonly maxFailures: number;
  readonly windowSeconds: number;
}

/**
 * Per-account throttling read from the event log's per-e-mail record of failures, so it holds across instances
 * sharing the store. Counts the failed sign-ins (`SignInFailed`, except a wrong current password on a password change,
 * which its session counts) for an e-mail within the window that are newer than its latest
 * `UserSignedIn`; at `maxFailures` it refuses until the oldest counted failure leaves the window.
 * A throttle, not a lockout: nobody can lock a victim out for longer than the window.
 */
export class SignInThrottle {
  constructor(
    private readonly deps: Pick<Ports, 'events' | 'clock'>,
    private readonly settings: SignInThrottleSettings,
  ) {}

  /**
   * Resolves when the normalised e-mail may try to sign in now; throws TooManyAttempts otherwise. Reads one record
   * (the failures since the last success), so it costs the same whatever the account's history or `maxFailures`.
   */
  async check(email: string): Promise<void> {
    const { maxFailures, windowSeconds } = this.settings;
    const now = this.deps.clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    const failures = await this.deps.events.recentSignInFailures(email);
    const inWindow = failures.filter((at) => at.getTime() > now - windowMs);
    const oldestCounted = inWindow[maxFailures - 1];
    if (!oldestCounted) return;
    const freesAt = oldestCounted.getTime() + windowMs;
    throw new TooManyAttempts(Math.max(1, Math.ceil((freesAt - now) / 1000)));
  }
}
