import { token } from '../di-token.js';
import type { RecordedEvent } from './event-log.port.js';

/** An event whose mail is due, with how many deliveries of it failed so far. */
export interface PendingMail {
  readonly event: RecordedEvent;
  readonly attempts: number;
}

/** A mail given up for good (too many failures, or refused for good), kept for an operator; never its content. */
export interface DeadLetter {
  readonly eventId: string;
  /** Failed deliveries, the last one included. */
  readonly attempts: number;
  /** When it was given up. */
  readonly failedAt: Date;
  /** The transport's error text of the last failure. */
  readonly lastError: string;
}

/**
 * The delivery state of the mails that events ask for. An entry is created by the event log itself, in the same
 * transaction as the event (for the types in MAIL_EVENT_TYPES that concern an account): nothing committed is lost.
 */
export interface Outbox {
  /**
   * Leases up to `limit` due entries (never sent, next attempt at or before `now`, no live lease) until
   * `now + leaseMs`, atomically: two dispatchers never hold the same entry at once. Returns [] when none is due.
   */
  claim(now: Date, leaseMs: number, limit: number): Promise<PendingMail[]>;

  /**
   * Marks the entries sent, all in one store write (a dispatcher marks a whole batch at once): they are never claimed
   * again. Idempotent; unknown ids are ignored; an empty list writes nothing.
   */
  markSent(eventIds: readonly string[]): Promise<void>;

  /**
   * Records a failed delivery: one more attempt, the next not before `nextAttemptAt`, `error` kept as the last error
   * text; releases the lease. An unknown id is ignored.
   */
  markFailed(eventId: string, nextAttemptAt: Date, error: string): Promise<void>;

  /**
   * Puts the entry back without counting an attempt (the relay failed, not this mail): due again at `nextAttemptAt`,
   * `error` kept as the last error text, lease released. A dead letter stays one; an unknown id is ignored.
   */
  postpone(eventId: string, nextAttemptAt: Date, error: string): Promise<void>;

  /**
   * Gives the entry up after one more failed delivery at `at`: it leaves the due queue for good and is kept as a dead
   * letter with `error`. Idempotent (a dead letter keeps its first time and error); an unknown id is ignored.
   */
  markDead(eventId: string, at: Date, error: string): Promise<void>;

  /** Up to `limit` dead letters, the most recent first; [] when there are none. */
  deadLetters(limit: number): Promise<DeadLetter[]>;

  /** How many mails wait to be sent (due, leased or backing off; not the dead letters). */
  pendingCount(): Promise<number>;
}

export const OUTBOX = token<Outbox>('Outbox');
