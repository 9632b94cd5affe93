/**
 * The service's entry point (`npm start`, and the service the tests and the benchmark spawn). It first refuses a
 * Node.js older than the floor with one line (argon2's binary would crash it: see node-floor.cts), then sizes libuv's
 * thread pool from HASH_CONCURRENCY before anything can start the pool, starts it (lowering its threads' priority
 * by HASH_THREAD_NICE), then loads the composition root.
 * CommonJS on purpose: Node reads an ES module entry point through the pool, which starts the pool with its
 * default 4 threads before the module's first line runs (measured; see the README, "Hashing threads").
 */
import { nodeFloorRefusal } from './infrastructure/config/node-floor.cjs';

const refusal = nodeFloorRefusal(process.version);
if (refusal !== undefined) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}

// Required only now, so that a too-old Node stops on the line above without reading anything else. A CommonJS
// require reads synchronously, off libuv's pool, so the pool is still unstarted when sizeThreadPool runs.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const threadPool = require('./infrastructure/config/thread-pool.cjs') as typeof import('./infrastructure/config/thread-pool.cjs');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const cluster = require('node:cluster') as typeof import('node:cluster').default;

// Sized before anything starts the pool, in the service and in the primary of WORKERS alike: the primary hashes.
threadPool.sizeThreadPool(process.env);
threadPool.startThreadPool(threadPool.hashThreadNiceOf(process.env));
// The composition root (main.ts) starts either: it loads the configuration with the one list of manifests for both.
// WORKERS processes on the one port (docs/operations.md, "Workers"): the primary forks them, hashes for them, serves no HTTP.
const primary = cluster.isPrimary && Number(process.env['WORKERS']) > 1;
void import('./main.js').then((main) => (primary ? main.runPrimaryFromCommandLine() : main.runFromCommandLine()));
