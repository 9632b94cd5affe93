import cluster from 'node:cluster';

/**
 * The environment variable the primary (primary.ts) sets on each worker it forks, to the worker's index: what tells a
 * worker of ours from a cluster worker of another primary (PM2's cluster mode, say), which would answer none of our
 * messages.
 */
export const WORKER_MARK = 'ACCOUNT_SERVICE_WORKER';

/** Whether this process is a worker forked by our primary (WORKERS above 1), which hashes and gathers metrics for it. */
export const isOurWorker = (): boolean => cluster.isWorker && process.send !== undefined && process.env[WORKER_MARK] !== undefined;

/** A message between the primary and its workers, told apart by its `type`. */
export const isMessage = <T extends { type: string }>(message: unknown, type: T['type']): message is T =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
