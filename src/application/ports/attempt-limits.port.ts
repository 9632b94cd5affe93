import { token } from '../di-token.js';
import type { RecordedEvent } from './event-log.port.js';

/** A cap on attempts of one kind for one subject: at most `max` within any `windowSeconds`. */
export interface Limit {
  /** The subject and kind: `sign-in:<email>`, `reset:<email>`, `verify:<email>`, `password-check:<sessionId>`. */
  readonly key: string;
  readonly max: number;
  readonly windowSeconds: number;
}

/** A limit as it stands at `at`: what the commit ending a run of failures checks (below its cap) and empties. */
export interface LimitAt extends Limit {
  readonly at: Date;
}

/** An attempt refused at its cap: when the oldest counted attempt leaves the window (one may then be counted again). */
export interface LimitReached {
  readonly retryAt: Date;
  /** The key of the limit reached (of several taken together, the one at its cap). */
  readonly key: string;
}

/** Counts attempts against caps, exactly under concurrency: the count is taken inside the write that records it. */
export interface AttemptLimits {
  /**
   * Counts one attempt at `at` against `limit` (or against each of several limits, all or none), committing `events` with it in one write; returns null when counted.
   * When `limit.max` attempts are already counted within the window, counts nothing, writes nothing (the events
   * neither) and returns LimitReached: of N simultaneous calls over a cap of K exactly K are counted. Throws
   * ServiceUnavailable when the store cannot write.
   */
  take(limit: Limit | readonly Limit[], at: Date, events?: readonly RecordedEvent[]): Promise<LimitReached | null>;

  /**
   * Whether `limit.max` attempts are counted within the window at `at`: LimitReached, else null. Read-only; a check
   * decides nothing that must hold under concurrency (see `take`).
   */
  check(limit: Limit, at: Date): Promise<LimitReached | null>;

  /** Forgets every attempt counted under `key` (a success ends a run of failures). Idempotent. */
  clear(key: string): Promise<void>;
}

export const ATTEMPT_LIMITS = token<AttemptLimits>('AttemptLimits');
