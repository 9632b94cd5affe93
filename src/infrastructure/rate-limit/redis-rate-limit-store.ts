import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** The per-client limits' shared counters (RATE_LIMIT_STORE=redis): the client @fastify/rate-limit counts on, and its close. */
export interface SharedRateLimitStore {
  /** An ioredis client, handed to @fastify/rate-limit as its `redis` store (atomic INCR and PEXPIRE in one script). */
  readonly client: unknown;
  /** Whether Redis answered last: false from its first error until it is ready again. */
  readonly up: () => boolean;
  /** Resolves once Redis answers, or after `timeoutMs` (the limits then fail open until it does, with the warn line). */
  ready(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Redis for the per-client limits, failing fast: no offline queue, one try per command, 500 ms per command, so that
 * an unreachable Redis costs a request at most that long (the limit then lets it through: fail open, see
 * docs/operations.md "Scale-out"). It reconnects by itself, backing off to 2 s; one warn line when it goes, one info
 * line when it comes back, and `onState` for the metric.
 */
export function redisRateLimitStore(url: string, logger: Pick<Logger, 'warn' | 'info'>, onState: (up: boolean) => void = () => undefined): SharedRateLimitStore {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 500,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let up = true;
  const down = (reason: string) => {
    if (!up) return;
    up = false;
    onState(false);
    logger.warn({ err: reason }, 'rate-limit store (Redis) unreachable: per-client limits let requests through until it answers again (fail open); per-account limits still hold');
  };
  client.on('error', (error: Error) => down(error.message));
  client.on('close', () => down('connection closed'));
  client.on('ready', () => {
    if (up) return;
    up = true;
    onState(true);
    logger.info('rate-limit store (Redis) answering again: per-client limits are shared again');
  });
  return {
    client,
    up: () => up,
    ready: (timeoutMs) =>
      client.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              down(`no answer within ${timeoutMs} ms`);
              resolve();
            }, timeoutMs);
            client.once('ready', () => {
              clearTimeout(timer);
              resolve();
            });
          }),
    close: async () => {
      client.disconnect();
      await Promise.resolve();
    },
  };
}
