import { statfsSync } from 'node:fs';
import { ServiceUnavailable } from '../../application/errors.js';

/** How long a client should wait before retrying a write the store refused. */
export const STORE_RETRY_AFTER_SECONDS = 5;
/** Readiness stays failed this long after the last failed commit (writes can flap while a disk is nearly full). */
export const WRITE_FAILURE_HOLD_MS = 10_000;
const CAUSE_WAIT_MS = 100;

interface LmdbCommitFailure extends Error {
  readonly commitError: Promise<unknown>;
}

/** lmdb-js rejects a failed commit with "Commit failed" and the real error (ENOSPC, EIO, ...) in a second promise. */
export const isCommitFailure = (error: unknown): error is LmdbCommitFailure =>
  error instanceof Error && typeof (error as { commitError?: { then?: unknown } }).commitError?.then === 'function';

const DRIVER_FAILURE = /MDB_|No space left|Input\/output error|ENOSPC|EIO|EDQUOT/;

/** A commit failure, or an error of the LMDB driver itself (map full, I/O): the store cannot write now. */
export const isStoreWriteFailure = (error: unknown): boolean =>
  isCommitFailure(error) || (error instanceof Error && !(error instanceof ServiceUnavailable) && DRIVER_FAILURE.test(error.message));

/**
 * The real cause of a failed commit: lmdb-js rejects `commitError` (which nobody else handles, so it must be
 * handled here or the process dies of an unhandled rejection) around the same time; waits briefly for it.
 */
export async function realCause(error: Error): Promise<Error> {
  if (!isCommitFailure(error)) return error;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Error>((resolve) => (timer = setTimeout(() => resolve(error), CAUSE_WAIT_MS)));
  const cause = error.commitError.then(
    () => error,
    (reason: unknown) => (reason instanceof Error ? reason : new Error(String(reason))),
  );
  return Promise.race([cause, timeout]).finally(() => clearTimeout(timer));
}

/** When the last commit failed, across every adapter sharing one LmdbStore. */
export class WriteFailures {
  private lastFailureAt = 0;
  private lastCause: string | null = null;

  record(cause: Error, now = Date.now()): void {
    this.lastFailureAt = now;
    this.lastCause = `${cause.message}${(cause as NodeJS.ErrnoException).code === undefined ? '' : ` (code ${String((cause as NodeJS.ErrnoException).code)})`}`;
  }

  /** The cause of a commit failure within the hold window, or null. */
  recent(now = Date.now()): string | null {
    return now - this.lastFailureAt < WRITE_FAILURE_HOLD_MS ? this.lastCause : null;
  }
}

/** Bytes available to this process on the filesystem holding `dir`; null when it cannot be measured. */
export function freeBytes(dir: string): number | null {
  try {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}
