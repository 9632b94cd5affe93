import { token } from '../di-token.js';
import type { RecordedEvent } from './event-log.port.js';

/** An event whose mail is due, with how many deliveries of it failed so far. */
export interface PendingMail {
  readonly event: RecordedEvent;
  readonly attempts: number;
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

  /** Marks the entry sent: it is never claimed again. Idempotent. */
  markSent(eventId: string): Promise<void>;

  /** Records a failed delivery: one more attempt, the next not before `nextAttemptAt`; releases the lease. */
  markFailed(eventId: string, nextAttemptAt: Date): Promise<void>;
}

export const OUTBOX = token<Outbox>('Outbox');
