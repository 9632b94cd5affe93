import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { DeadLetter } from '../../application/ports/outbox.port.js';
import { MAIL_EVENT_TYPES } from '../../domain/mail-events.js';
import type { EventStamps } from '../../application/ports/event-declarations.js';

/** The delivery state of one mail, kept beside its event. Times are epoch milliseconds; 0 means "not set". */
export interface OutboxEntry {
  readonly eventId: string;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly leaseUntil: number;
  /** Set once the mail is given up (a dead letter): it is never claimed again, kept for an operator. */
  readonly deadAt?: number;
  /** The text of the last failure (a transport error, never the mail's content). */
  readonly lastError?: string;
}

/**
 * True for an event that asks for a mail to an account (the outbox projection creates its entry in the same write): a
 * capability's event as its capability declared (stamped `mailed`), a core's as MAIL_EVENT_TYPES says.
 */
export const needsMail = (event: RecordedEvent & EventStamps): boolean =>
  event.aggregateId !== null &&
  (event.retention === undefined ? MAIL_EVENT_TYPES.has(event.type) && !(event.type === 'PasswordResetRequested' && event.payload.binding === null) : event.mailed === true);

export const newEntry = (eventId: string): OutboxEntry => ({ eventId, attempts: 0, nextAttemptAt: 0, leaseUntil: 0 });

/** Due: not a dead letter, not waiting for a retry and not leased by anyone at `now`. */
export const isDue = (entry: OutboxEntry, now: number): boolean => entry.deadAt === undefined && entry.nextAttemptAt <= now && entry.leaseUntil <= now;

/** When the entry may next be claimed (its retry time or the end of its lease, the later); null for a dead letter. */
export const dueAtOf = (entry: OutboxEntry): number | null => (entry.deadAt === undefined ? Math.max(entry.nextAttemptAt, entry.leaseUntil) : null);

/** The entry after one more failed delivery, due again at `nextAttemptAt`, lease released. */
export const failedEntry = (entry: OutboxEntry, nextAttemptAt: number, error: string): OutboxEntry => ({
  ...entry,
  attempts: entry.attempts + 1,
  nextAttemptAt,
  leaseUntil: 0,
  lastError: error,
});

/** The entry due again at `nextAttemptAt`, lease released, no attempt counted (the relay failed, not the mail). */
export const postponedEntry = (entry: OutboxEntry, nextAttemptAt: number, error: string): OutboxEntry =>
  entry.deadAt === undefined ? { ...entry, nextAttemptAt, leaseUntil: 0, lastError: error } : entry;

/** The entry given up after one more failed delivery at `at`: a dead letter. Unchanged when it is one already. */
export const deadEntry = (entry: OutboxEntry, at: number, error: string): OutboxEntry =>
  entry.deadAt === undefined ? { ...failedEntry(entry, 0, error), deadAt: at } : entry;

/** The dead letter an entry is, for an operator; null for a live entry. */
export const deadLetterOf = (entry: OutboxEntry): DeadLetter | null =>
  entry.deadAt === undefined ? null : { eventId: entry.eventId, attempts: entry.attempts, failedAt: new Date(entry.deadAt), lastError: entry.lastError ?? '' };
