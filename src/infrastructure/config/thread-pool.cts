import { stat, readdirSync } from 'node:fs';
import { availableParallelism, getPriority, setPriority } from 'node:os';

/**
 * libuv threads kept beside the hashes for file-system, DNS and other pool work: the hash limiter never runs
 * more than HASH_CONCURRENCY hashes at once, so this many threads always stay free for that work.
 */
export const THREAD_POOL_HEADROOM = 4;
/** libuv's own ceiling on UV_THREADPOOL_SIZE. */
const LIBUV_MAX_THREADS = 1024;
const MAX_HASH_CONCURRENCY = 256;

/**
 * HASH_CONCURRENCY as the configuration reads it (an integer from 1 to 256, default the available parallelism);
 * an unreadable value gives the default here, and the configuration then refuses to start.
 */
export function hashConcurrencyOf(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env['HASH_CONCURRENCY']?.trim();
  const value = raw ? Number(raw) : NaN;
  return Number.isInteger(value) && value >= 1 && value <= MAX_HASH_CONCURRENCY ? value : availableParallelism();
}

/** HASH_THREAD_NICE as the configuration reads it (an integer from 0 to 19, default 0); 0 when unreadable. */
export function hashThreadNiceOf(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env['HASH_THREAD_NICE']?.trim();
  const value = raw ? Number(raw) : 0;
  return Number.isInteger(value) && value >= 0 && value <= 19 ? value : 0;
}

/** The libuv pool the service needs: one thread per concurrent hash plus the headroom. */
export const threadPoolSizeFor = (hashConcurrency: number): number => Math.min(LIBUV_MAX_THREADS, hashConcurrency + THREAD_POOL_HEADROOM);

/** UV_THREADPOOL_SIZE as set now (libuv's default, 4, when unset or unreadable). */
export function configuredThreadPoolSize(env: Readonly<Record<string, string | undefined>>): number {
  const value = Number(env['UV_THREADPOOL_SIZE']);
  return Number.isInteger(value) && value >= 1 ? Math.min(LIBUV_MAX_THREADS, value) : 4;
}

/**
 * Sets UV_THREADPOOL_SIZE for HASH_CONCURRENCY (a larger value already set is kept) and returns the size. Only
 * takes effect before libuv's pool first starts: the first file read, DNS lookup, crypto or argon2 call; an ES
 * module entry point is itself read through the pool, so this must run from a CommonJS entry (src/start.cts).
 */
export function sizeThreadPool(env: Record<string, string | undefined>): number {
  const size = Math.max(threadPoolSizeFor(hashConcurrencyOf(env)), env['UV_THREADPOOL_SIZE'] === undefined ? 0 : configuredThreadPoolSize(env));
  env['UV_THREADPOOL_SIZE'] = String(size);
  return size;
}

const threadIds = (): Set<string> => {
  try {
    return new Set(readdirSync('/proc/self/task'));
  } catch {
    return new Set();
  }
};

/**
 * Starts libuv's pool now (its threads are all created by the first piece of pool work) and lowers the scheduling
 * priority of its threads, the hashing threads, by `niceness` (Linux: a thread's id names it to setpriority), so
 * that the event loop, at the normal priority, gets a core whenever it has work. Returns how many threads were
 * lowered (0 where threads cannot be listed, or with `niceness` 0). Call once, before anything else uses the pool.
 */
export function startThreadPool(niceness: number): number {
  const before = threadIds();
  stat(__filename, () => undefined);
  const pool = niceness === 0 ? [] : [...threadIds()].filter((id) => !before.has(id));
  for (const id of pool) setPriority(Number(id), Math.min(19, getPriority(Number(id)) + niceness));
  return pool.length;
}
