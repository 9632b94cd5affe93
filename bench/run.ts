import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/infrastructure/config/config.js';
import { type LoadResult, combine, cpuMicrosPerResponse, interleaved, load } from './load.js';
import { type Server, startServer } from './processes.js';
import { rawVerifyThroughput } from './raw-argon2.js';

const CPUS = availableParallelism();
const USER = { name: 'Bench', lastname: 'Mark', email: 'bench@example.com', password: 'analytical engine 1843' };
const SIGN_IN = JSON.stringify({ email: USER.email, password: USER.password });
const SIGN_UP = JSON.stringify({ ...USER, email: 'bench-[<id>]@example.com' });
const INVALID = '{}';
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

async function burst(service: Server): Promise<LoadResult & { burstPeakRssMiB: number }> {
  let burstPeakRssMiB = 0;
  const sampler = setInterval(() => (burstPeakRssMiB = Math.max(burstPeakRssMiB, service.memory().rssMiB)), 100);
  try {
    const result = await load({ url: service.url, path: '/auth/sign-in', body: SIGN_IN, connections: 500, seconds: 8, server: service }, 201);
    return { ...result, burstPeakRssMiB };
  } finally {
    clearInterval(sampler);
  }
}

async function main(): Promise<void> {
  const config = loadConfig({});
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  process.stderr.write('building dist/ (the service runs as `npm start` runs it)...\n');
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'account-bench-'));
  const env = {
    NODE_ENV: 'development',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    STORAGE: 'lmdb',
    RATE_LIMIT_MAX: '1000000',
  };
  const service = await startServer('dist/main.js', env, join(dataDir, 'service.log'));
  const bare = await startServer('bench/bare-server.ts', {}, join(dataDir, 'bare.log'));
  try {
    process.stderr.write(`service ${service.url}, bare Fastify ${bare.url}; ${CPUS} CPUs, argon2 m=${config.argon2.memoryKiB} t=${config.argon2.timeCost} p=${config.argon2.parallelism}\n`);
    const seeded = await fetch(`${service.url}/auth/sign-up`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(USER) });
    if (seeded.status !== 201) throw new Error(`seeding the bench user failed: ${seeded.status}`);

    process.stderr.write('(a) raw argon2id verify, interleaved with (b) sign-in at saturation...\n');
    const saturation = 8 * CPUS;
    const signInLoad = (seconds: number) => load({ url: service.url, path: '/auth/sign-in', body: SIGN_IN, connections: saturation, seconds, server: service }, 201);
    await signInLoad(2);
    const raws: number[] = [];
    const signIns: LoadResult[] = [];
    for (let round = 0; round < 2; round += 1) {
      raws.push(await rawVerifyThroughput(config.argon2, CPUS, 3));
      signIns.push(await signInLoad(5));
    }
    const rawArgon2 = raws.reduce((sum, value) => sum + value, 0) / raws.length;
    const signIn = combine(signIns);
    process.stderr.write('(b) sign-up at saturation...\n');
    const signUp = await load({ url: service.url, path: '/auth/sign-up', body: SIGN_UP, connections: saturation, seconds: 8, uniqueIds: true, server: service }, 201);

    process.stderr.write('(c) the 400 path against bare Fastify...\n');
    const invalidLoad = (server: Server, seconds: number) => load({ url: server.url, path: '/auth/sign-in', body: INVALID, connections: 50, seconds, server }, 400);
    await invalidLoad(service, 1);
    await invalidLoad(bare, 1);
    const [invalid, bareFastify] = await interleaved(() => invalidLoad(service, 3), () => invalidLoad(bare, 3), 2);

    process.stderr.write('(d) burst of 500 connections of sign-in...\n');
    const overload = await burst(service);
    const memory = service.memory();

    const rows = [
      { scenario: '(a) raw argon2id verify', concurrency: CPUS, 'ok/s': round(rawArgon2), p50ms: '', p99ms: '', 'server cpu µs/resp': '', statuses: '' },
      ...([
        ['(b) sign-in at saturation', saturation, signIn],
        ['(b) sign-up at saturation', saturation, signUp],
        ['(c) 400 path (service)', 50, invalid],
        ['(c) 400 path (bare Fastify)', 50, bareFastify],
        ['(d) burst sign-in (201 only)', 500, overload],
      ] as const).map(([scenario, concurrency, r]) => ({
        scenario,
        concurrency,
        'ok/s': round(r.okPerSecond),
        p50ms: round(r.p50),
        p99ms: round(r.p99),
        'server cpu µs/resp': round(cpuMicrosPerResponse(r)),
        statuses: JSON.stringify(r.byStatus),
      })),
    ];
    const shedRate = (overload.byStatus['503'] ?? 0) / Math.max(1, overload.total);
    const ratios = { signInPerRawArgon2: round(signIn.okPerSecond / rawArgon2, 3), invalidPathPerBareFastify: round(invalid.okPerSecond / bareFastify.okPerSecond, 3),
      invalidPathCpuPerBareFastify: round(cpuMicrosPerResponse(bareFastify) / cpuMicrosPerResponse(invalid), 3),
    };
    console.table(rows);
    console.log(`load average at start ${loadAverageAtStart.join(' ')} on ${CPUS} CPUs (other processes skew every number)`);
    console.log(`sign-in / raw argon2 = ${ratios.signInPerRawArgon2} (target >= 0.9)`);
    console.log(`400 path / bare Fastify = ${ratios.invalidPathPerBareFastify} (target >= 0.5); by server CPU per response: ${ratios.invalidPathCpuPerBareFastify}`);
    console.log(`burst: shed rate ${round(shedRate * 100)}%, p99 of accepted ${round(overload.p99)} ms, peak RSS during burst ${round(overload.burstPeakRssMiB)} MiB, peak RSS of the run ${round(memory.peakRssMiB)} MiB`);

    const results = {
      date: new Date().toISOString(),
      machine: { loadAverageAtStart, cpus: CPUS, model: cpus()[0]?.model ?? 'unknown', node: process.version, uvThreadpoolSize: process.env['UV_THREADPOOL_SIZE'] ?? '4 (default)' },
      service: { argon2: config.argon2, hashing: config.hashing, storage: 'lmdb', logLevel: 'info' },
      rawArgon2VerifyPerSecond: { mean: round(rawArgon2), rounds: raws.map((value) => round(value)) },
      signIn,
      signUp,
      invalidPath: invalid,
      bareFastify,
      burst: { ...overload, shedRate: round(shedRate, 4), peakRssMiB: round(memory.peakRssMiB) },
      ratios,
    };
    writeFileSync(join(import.meta.dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await Promise.all([service.stop(), bare.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
