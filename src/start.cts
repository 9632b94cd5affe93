/**
 * The service's entry point (`npm start`, and the service the tests and the benchmark spawn). It sizes libuv's
 * thread pool from HASH_CONCURRENCY before anything can start the pool, starts it (lowering its threads' priority
 * by HASH_THREAD_NICE), then loads the composition root.
 * CommonJS on purpose: Node reads an ES module entry point through the pool, which starts the pool with its
 * default 4 threads before the module's first line runs (measured; see the README, "Hashing threads").
 */
import { hashThreadNiceOf, sizeThreadPool, startThreadPool } from './infrastructure/config/thread-pool.cjs';

sizeThreadPool(process.env);
startThreadPool(hashThreadNiceOf(process.env));
void import('./main.js').then((main) => main.runFromCommandLine());
