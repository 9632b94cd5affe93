import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { redisFailure, redisTarget } from './redis-failure.js';

/** The per-client limits' shared counters (RATE_LIMIT_STORE=redis): the client @fastify/rate-limit counts on, and its close. */
export interface SharedRateLimitStore {
  /** An ioredis client, handed to @fastify/rate-limit as its `redis` store (atomic INCR and PEXPIRE in one script). */
  readonly client: unknown;
  /** Whether Redis answered last: false from its first error until it is ready again. */
  readonly up: () => boolean;
  /**
   * Resolves at the first outcome of the connection: Redis answers, or it fails (refused, unknown host, a wrong
   * password, a TLS error: the limits then fail open, with the warn line), or `timeoutMs` passes. Never rejects.
   */
  ready(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const UNREACHABLE =
  'rate-limit store (Redis) unreachable: per-client limits let requests through until it answers again (fail open); per-account limits still hold';

/**
 * Redis for the per-client limits, failing fast: no offline queue, one try per command, 500 ms per command, so that
 * an unreachable Redis costs a request at most that long (the limit then lets it through: fail open, see
 * docs/operations.md "Scale-out"). It reconnects by itself, backing off to 2 s. A warn line when it goes, naming
 * where (`redis`: scheme, host and port, never the password) and why (`cause`, `code`); one more for each other cause
 * while it stays away (not one per retry); one info line when it comes back; and `onState` for the metric.
 */
export function redisRateLimitStore(url: string, logger: Pick<Logger, 'warn' | 'info'>, onState: (up: boolean) => void = () => undefined): SharedRateLimitStore {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 500,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  const redis = redisTarget(url);
  let up = true;
  const causesLogged = new Set<string>();
  const down = (failure: { readonly cause: string; readonly code?: string }) => {
    if (up) {
      up = false;
      onState(false);
    }
    if (causesLogged.has(failure.cause)) return;
    causesLogged.add(failure.cause);
    logger.warn({ redis, ...failure }, causesLogged.size === 1 ? UNREACHABLE : 'rate-limit store (Redis) still unreachable, for another cause');
  };
  client.on('error', (error: unknown) => down(redisFailure(error, url)));
  client.on('close', () => {
    if (up && client.status !== 'end') down({ cause: 'the connection closed' });
  });
  client.on('ready', () => {
    causesLogged.clear();
    if (up) return;
    up = true;
    onState(true);
    logger.info({ redis }, 'rate-limit store (Redis) answering again: per-client limits are shared again');
  });
  return {
    client,
    up: () => up,
    ready: (timeoutMs) =>
      client.status === 'ready' || !up
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const settle = () => {
              clearTimeout(timer);
              client.off('ready', settle).off('error', settle).off('close', settle);
              resolve();
            };
            const timer = setTimeout(() => {
              down({ cause: `no answer within ${timeoutMs} ms` });
              settle();
            }, timeoutMs);
            client.once('ready', settle).once('error', settle).once('close', settle);
          }),
    close: async () => {
      client.disconnect();
      await Promise.resolve();
    },
  };
}
