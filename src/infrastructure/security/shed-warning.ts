import type { Logger } from 'pino';
import type { LimiterStats } from './concurrency-limiter.js';

/**
 * A ConcurrencyLimiter `onShed` listener that logs one warn line per interval at most (with the queue depth,
 * the running count, the total shed count and how many were shed since the last line), so a flood cannot flood the log.
 */
export function shedWarning(logger: Pick<Logger, 'warn'>, intervalMs = 1000, now: () => number = Date.now): (stats: LimiterStats) => void {
  let lastAt = Number.NEGATIVE_INFINITY;
  let lastShed = 0;
  return (stats) => {
    const at = now();
    if (at - lastAt < intervalMs) return;
    logger.warn(
      { queued: stats.queued, running: stats.running, shed: stats.shed, shedSinceLastWarning: stats.shed - lastShed },
      'hashing capacity exhausted: shedding requests with 503',
    );
    lastAt = at;
    lastShed = stats.shed;
  };
}
