/**
 * The measurement behind the thread-pool decision (README, "Hashing threads"): argon2id verify throughput for
 * several libuv pool sizes, and the latency of a small file read while HASH_CONCURRENCY hashes keep the pool busy,
 * with no spare thread (pool = HASH_CONCURRENCY) and with the headroom the service keeps (pool = HASH_CONCURRENCY + 4).
 * Each case runs in its own process, since the pool is sized once per process. Run: npx tsx bench/thread-pool-choice.ts
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { THREAD_POOL_HEADROOM } from '../src/infrastructure/config/thread-pool.cjs';
import { rawVerifyThroughput } from './raw-argon2.js';

const ARGON2_DEFAULTS = { memoryKiB: 19456, timeCost: 2, parallelism: 1 };

const ARGON2 = createRequire(import.meta.url).resolve('argon2');
const CPUS = availableParallelism();

/** Runs `body` (CommonJS, with `argon2`, `hash` and `password` in scope) in a fresh process with the given pool size. */
function inProcess(poolSize: number, body: string): unknown {
  const code = `const argon2 = require(${JSON.stringify(ARGON2)}); const password = 'analytical engine 1843';
    (async () => { const hash = await argon2.hash(password, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    ${body} })().catch((e) => { console.error(e); process.exit(1); });`;
  return JSON.parse(execFileSync(process.execPath, ['-e', code], { env: { ...process.env, UV_THREADPOOL_SIZE: String(poolSize) } }).toString());
}


const fsLatencyUnderHashing = (poolSize: number, hashes: number, reads: number) =>
  inProcess(poolSize, `const fs = require('node:fs/promises'); let stop = false;
    const hashing = Array.from({ length: ${hashes} }, async () => { while (!stop) await argon2.verify(hash, password); });
    await new Promise((r) => setTimeout(r, 200)); const ms = [];
    for (let i = 0; i < ${reads}; i++) { const t = performance.now(); await fs.stat(${JSON.stringify(import.meta.filename)}); ms.push(performance.now() - t); await new Promise((r) => setTimeout(r, 5)); }
    stop = true; await Promise.all(hashing); ms.sort((a, b) => a - b);
    console.log(JSON.stringify({ p50: ms[Math.floor(ms.length / 2)], p99: ms[Math.floor(ms.length * 0.99)] }));`) as { p50: number; p99: number };

const round = (value: number) => Math.round(value * 10) / 10;
console.log(`${CPUS} CPUs, argon2id m=19456 t=2 p=1; each figure from its own process`);
for (const pool of [...new Set([2, 4, CPUS, 2 * CPUS, 8, 16])].sort((a, b) => a - b)) {
  console.log(`verify/s, pool ${pool}, ${pool} at a time: ${round(await rawVerifyThroughput(ARGON2_DEFAULTS, pool, pool, 3))}`);
}
const hashes = Math.max(4, CPUS);
for (const pool of [hashes, hashes + THREAD_POOL_HEADROOM]) {
  const { p50, p99 } = fsLatencyUnderHashing(pool, hashes, 100);
  console.log(`fs.stat while ${hashes} hashes keep running, pool ${pool}: p50 ${round(p50)} ms, p99 ${round(p99)} ms`);
}
