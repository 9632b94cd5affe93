import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { OneTimePurpose } from '../../application/ports/one-time-tokens.port.js';

/** Requests kept per address and purpose: the largest per-address cap allowed (PASSWORD_RESET_MAX_PER_ADDRESS, VERIFICATION_MAIL_MAX_PER_ADDRESS). */
export const MAX_TRACKED_MAIL_REQUESTS = 100;
/** Requests older than the longest window allowed are dropped when the record is next written. */
export const MAX_MAIL_REQUEST_AGE_MS = 24 * 3600 * 1000;

const PURPOSE_OF: Readonly<Record<string, OneTimePurpose>> = { PasswordResetRequested: 'reset', EmailVerificationRequested: 'verify' };

/** The key of the record of one address and purpose: `reset:ada@example.com`. */
export const mailRequestKey = (purpose: OneTimePurpose, email: string): string => `${purpose}:${email}`;

/** The record an event counts in (a reset or verification mail asked for an address, with or without an account), or null. */
export const mailRequestKeyOf = (event: RecordedEvent): string | null => {
  const purpose = PURPOSE_OF[event.type];
  return purpose === undefined ? null : mailRequestKey(purpose, (event.payload as { email: string }).email);
};

/**
 * The per-address record every event log keeps beside its events (the `mailRequests` projection), so that the
 * per-address caps read one record whatever the address's history: epoch milliseconds of the requests, newest first,
 * at most MAX_TRACKED_MAIL_REQUESTS and none older than MAX_MAIL_REQUEST_AGE_MS.
 */
export const withRequestAt = (current: readonly number[] | undefined, at: number): number[] =>
  [at, ...(current ?? []).filter((time) => time > at - MAX_MAIL_REQUEST_AGE_MS)].slice(0, MAX_TRACKED_MAIL_REQUESTS);
