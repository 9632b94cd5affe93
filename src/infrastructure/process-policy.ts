import type { Logger } from 'pino';
import { isCommitFailure } from './lmdb/lmdb-write-failures.js';

/**
 * The process-level policy for rejections nobody handled: a failed LMDB commit (already answered 503 by the
 * adapter, whose driver rejects a few more promises for the same failure) is logged and the process goes on;
 * anything else is unknown, so it is logged as fatal and the process exits with code 1 for its supervisor to restart.
 */
export function installRejectionPolicy(logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  process.on('unhandledRejection', (reason: unknown) => {
    if (isCommitFailure(reason)) {
      logger.warn({ err: { message: reason.message } }, 'store commit failed (answered 503 where a request waited for it)');
      return;
    }
    logger.fatal({ err: reason }, 'unhandled promise rejection: exiting');
    exit(1);
  });
}
