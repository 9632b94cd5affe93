import { format } from 'node:util';
import type { Logger } from 'pino';
import { isCommitFailure, realCause } from './lmdb/lmdb-write-failures.js';

/** One log line per burst: the first failure of a burst is logged, the rest are counted into the next line. */
export const BURST_MS = 10_000;

/** Logs the first of a burst of like events, and the number left out with the next one after the burst. */
class OncePerBurst {
  private lastLoggedAt = Number.NEGATIVE_INFINITY;
  private leftOut = 0;

  constructor(private readonly now: () => number) {}

  /** Calls `log` with how many were left out since the last line, or does nothing while the burst lasts. */
  note(log: (leftOut: number) => void): void {
    const now = this.now();
    if (now - this.lastLoggedAt < BURST_MS) {
      this.leftOut += 1;
      return;
    }
    log(this.leftOut);
    this.lastLoggedAt = now;
    this.leftOut = 0;
  }
}

const causeOf = (error: Error) => ({ message: error.message, ...((error as NodeJS.ErrnoException).code === undefined ? {} : { code: (error as NodeJS.ErrnoException).code }) });

/**
 * The process-level policy for rejections nobody handled: a failed LMDB commit (already answered 503 by the
 * adapter, whose driver rejects a few more promises for the same failure) is logged with its real cause (ENOSPC,
 * EIO, ...), once per burst, and the process goes on; anything else is unknown, so it is logged as fatal and the
 * process exits with code 1 for its supervisor to restart.
 */
export function installRejectionPolicy(logger: Logger, exit: (code: number) => void = (code) => process.exit(code), now: () => number = Date.now): void {
  const commits = new OncePerBurst(now);
  process.on('unhandledRejection', (reason: unknown) => {
    if (isCommitFailure(reason)) {
      void realCause(reason).then((cause) =>
        commits.note((leftOut) => logger.warn({ cause: causeOf(cause), leftOut }, 'store commit failed (answered 503 where a request waited for it)')),
      );
      return;
    }
    logger.fatal({ err: reason }, 'unhandled promise rejection: exiting');
    exit(1);
  });
}

/**
 * Routes what libraries print with console.error and console.warn (lmdb-js prints multi-line errors there on a full
 * disk) into the JSON log: one warn line per burst, the text on one line, instead of raw lines in the middle of it.
 * What native code writes to stderr itself cannot be caught: keep stderr apart from the JSON log (stdout).
 */
export function routeConsoleToLogger(logger: Pick<Logger, 'warn'>, target: Pick<Console, 'error' | 'warn'> = console, now: () => number = Date.now): void {
  const burst = new OncePerBurst(now);
  const route = (stream: 'error' | 'warn') => (...args: unknown[]) =>
    burst.note((leftOut) => logger.warn({ source: `console.${stream}`, text: format(...args).slice(0, 2000), leftOut }, 'a library printed to the console'));
  target.error = route('error');
  target.warn = route('warn');
}
