import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { MAIL_EVENT_TYPES } from '../../domain/mail-events.js';

/** The delivery state of one mail, kept beside its event. Times are epoch milliseconds; 0 means "not set". */
export interface OutboxEntry {
  readonly eventId: string;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly leaseUntil: number;
}

/** True for an event that asks for a mail to an account (the outbox projection creates its entry in the same write). */
export const needsMail = (event: RecordedEvent): boolean =>
  MAIL_EVENT_TYPES.has(event.type) && event.aggregateId !== null && !(event.type === 'PasswordResetRequested' && event.payload.binding === null);

export const newEntry = (eventId: string): OutboxEntry => ({ eventId, attempts: 0, nextAttemptAt: 0, leaseUntil: 0 });

/** Due: not waiting for a retry and not leased by anyone at `now`. */
export const isDue = (entry: OutboxEntry, now: number): boolean => entry.nextAttemptAt <= now && entry.leaseUntil <= now;
