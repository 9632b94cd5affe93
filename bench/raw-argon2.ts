import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import type { Config } from '../src/infrastructure/config/config.js';

const ARGON2 = createRequire(import.meta.url).resolve('argon2');

/**
 * argon2id verifications per second with the service's parameters, `concurrency` at a time for `seconds`, in a fresh
 * process whose libuv pool has `poolSize` threads (the pool is sized once per process, before its first use).
 */
export async function rawVerifyThroughput(parameters: Config['argon2'], poolSize: number, concurrency: number, seconds: number): Promise<number> {
  const options = { type: 2, memoryCost: parameters.memoryKiB, timeCost: parameters.timeCost, parallelism: parameters.parallelism };
  const code = `const argon2 = require(${JSON.stringify(ARGON2)}); const password = 'analytical engine 1843';
    (async () => {
      const hash = await argon2.hash(password, ${JSON.stringify(options)});
      const end = performance.now() + ${seconds * 1000}; let done = 0; const started = performance.now();
      await Promise.all(Array.from({ length: ${concurrency} }, async () => {
        while (performance.now() < end) { if (!(await argon2.verify(hash, password))) throw new Error('argon2 verify failed'); done += 1; }
      }));
      console.log(done / ((performance.now() - started) / 1000));
    })().catch((error) => { console.error(error); process.exit(1); });`;
  const { UV_THREADPOOL_SIZE: _inherited, ...env } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', code], { env: { ...env, UV_THREADPOOL_SIZE: String(poolSize) } });
  return Number(stdout.trim());
}
