import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config/config.js';
import { createLogger } from '../logging/logger.js';
import { serveClusterMetrics } from './cluster-metrics.js';
import { serveHashing } from './primary-hashing.js';
import { WORKER_MARK } from './worker.js';

/** A worker that ends while serving is replaced, unless more than this many ended within the window: then all stop. */
const MAX_REPLACEMENTS = 5;
const REPLACEMENT_WINDOW_MS = 60_000;

/**
 * What each worker is started with: HASH_CONCURRENCY whole, since the primary runs every hash behind one limiter of
 * that many (a worker never has more at the primary), and its share of HASH_QUEUE_MAX for the sign-ins it holds
 * beyond those, so that the machine lets about as many wait as one process would.
 */
export const hashingPerWorker = (config: Pick<Config, 'workers' | 'hashing'>): { concurrency: number; maxQueue: number } => ({
  concurrency: config.hashing.concurrency,
  maxQueue: Math.ceil(config.hashing.maxQueue / config.workers),
});

/**
 * The primary of WORKERS processes (node:cluster), started by src/start.cts instead of the service when WORKERS is
 * above 1. It serves no HTTP itself: it forks the workers, each a whole service (src/main.ts) on the one port and the
 * one store; runs every worker's password hashing behind one limiter (primary-hashing.ts); gathers their metrics
 * for GET /metrics; replaces a worker that ends while serving; and on SIGTERM or SIGINT passes SIGTERM to every worker (each drains and closes as a single
 * process does) and exits once they all have, 0 when each did. A worker that ends before it listens (a port taken,
 * a store that will not open) stops them all, exit 1: starting it again would fail again. `config` is loaded by the
 * composition root (src/main.ts) with every capability's manifest, as a single process's is: a wrong setting stops
 * the start here, once, before any worker is forked.
 */
export function runPrimary(config: Config): void {
  const logger = createLogger(config.logLevel, undefined, config.logFormat).child({ role: 'primary' });
  const perWorker = hashingPerWorker(config);
  const live = new Set<Worker>();
  const replaced: number[] = [];
  let stopping = false;
  let failed = false;

  // Once: a worker's SIGTERM handler runs once, and a second SIGTERM would end it mid-drain.
  const stopAll = () => {
    if (stopping) return;
    stopping = true;
    if (live.size === 0) process.exit(failed ? 1 : 0);
    for (const worker of live) worker.process.kill('SIGTERM');
  };

  const fork = (index: number) => {
    const worker = cluster.fork({ HASH_CONCURRENCY: String(perWorker.concurrency), HASH_QUEUE_MAX: String(perWorker.maxQueue), [WORKER_MARK]: String(index) });
    live.add(worker);
    let listening = false;
    worker.once('listening', () => {
      listening = true;
    });
    worker.once('exit', (code: number | null, signal: string | null) => {
      live.delete(worker);
      if (stopping) {
        if (code !== 0) failed = true;
        if (live.size === 0) process.exit(failed ? 1 : 0);
        return;
      }
      if (!listening) {
        logger.error({ worker: index, code, signal }, 'a worker ended before it served: stopping every worker');
        failed = true;
        return stopAll();
      }
      const now = Date.now();
      replaced.push(now);
      while (replaced.length > 0 && now - (replaced[0] ?? now) > REPLACEMENT_WINDOW_MS) replaced.shift();
      if (replaced.length > MAX_REPLACEMENTS) {
        logger.error({ worker: index, code, signal, replaced: replaced.length }, 'workers keep ending: stopping every worker');
        failed = true;
        return stopAll();
      }
      logger.warn({ worker: index, code, signal }, 'a worker ended while serving: starting another');
      fork(index);
    });
  };

  serveClusterMetrics();
  serveHashing(config.argon2, config.hashing.concurrency, config.hashing.maxQueue);
  process.once('SIGTERM', stopAll);
  process.once('SIGINT', stopAll);
  for (let index = 0; index < config.workers; index += 1) fork(index);
  logger.info({ workers: config.workers, hashingPerWorker: perWorker }, 'primary started its workers');
}
