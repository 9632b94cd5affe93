import type { RecordedEvent } from '../application/ports/event-log.port.js';

/** Failed sign-ins kept per e-mail: the largest THROTTLE_MAX_FAILURES allowed. */
export const MAX_TRACKED_FAILURES = 1000;
/** Failures older than the longest THROTTLE_WINDOW_SECONDS allowed are dropped when the record is next written. */
export const MAX_TRACKED_AGE_MS = 24 * 3600 * 1000;

/**
 * The per-e-mail record every event log keeps beside its events, so that the throttle reads one record whatever the
 * account's history: epoch milliseconds of the failed sign-ins since the last successful one, newest first.
 * Returns the record after `event` (null: remove it), or undefined when the event does not touch it.
 */
export function nextFailures(current: readonly number[] | undefined, event: RecordedEvent): number[] | null | undefined {
  if (event.type === 'UserSignedIn') return null;
  if (event.type !== 'SignInFailed') return undefined;
  const at = event.occurredAt.getTime();
  return [at, ...(current ?? []).filter((time) => time > at - MAX_TRACKED_AGE_MS)].slice(0, MAX_TRACKED_FAILURES);
}
