import * as argon2 from 'argon2';
import type { Config } from '../src/infrastructure/config/config.js';

/** argon2id verifications per second with the service's parameters, `concurrency` at a time, for `seconds`. */
export async function rawVerifyThroughput(parameters: Config['argon2'], concurrency: number, seconds: number): Promise<number> {
  const password = 'analytical engine 1843';
  const hash = await argon2.hash(password, {
    type: argon2.argon2id,
    memoryCost: parameters.memoryKiB,
    timeCost: parameters.timeCost,
    parallelism: parameters.parallelism,
  });
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      if (!(await argon2.verify(hash, password))) throw new Error('argon2 verify failed');
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((performance.now() - started) / 1000);
}
