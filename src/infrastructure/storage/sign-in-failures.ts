/** Failed sign-ins kept per e-mail: the largest THROTTLE_MAX_FAILURES allowed. */
export const MAX_TRACKED_FAILURES = 1000;
/** Failures older than the longest THROTTLE_WINDOW_SECONDS allowed are dropped when the record is next written. */
export const MAX_TRACKED_AGE_MS = 24 * 3600 * 1000;

/**
 * The per-e-mail record every event log keeps beside its events (the `signInFailures` projection), so that the
 * throttle reads one record whatever the account's history: epoch milliseconds of the failed sign-ins since the last
 * successful one, newest first. Returns the record after a failure at `at`: at most MAX_TRACKED_FAILURES, none older
 * than MAX_TRACKED_AGE_MS.
 */
export const withFailureAt = (current: readonly number[] | undefined, at: number): number[] =>
  [at, ...(current ?? []).filter((time) => time > at - MAX_TRACKED_AGE_MS)].slice(0, MAX_TRACKED_FAILURES);
