import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/infrastructure/config/config.js';
import { threadPoolSizeFor } from '../src/infrastructure/config/thread-pool.cjs';
import { startEntry } from '../tests/support/child-service.js';
import { busyWorkerThreads, threadCpuTicks } from '../tests/support/process-threads.js';
import { type LoadResult, combine, cpuMicrosPerResponse, interleaved, load, loopMicrosPerResponse } from './load.js';
import { type Server, startServer } from './processes.js';
import { oidcGrants, oidcGrantsReport } from './oidc-grants.js';
import { postgresPart } from './postgres.js';
import { postgresReport } from './postgres-report.js';
import { rawVerifyThroughput } from './raw-argon2.js';
import { scalingTable } from './scaling.js';
import { WORK_POINTS_MICROS, type WorkPoint, budgetFor } from './work-curve.js';

const CPUS = availableParallelism();
const USER = { name: 'Bench', lastname: 'Mark', email: 'bench@example.com', password: 'analytical engine 1843' };
const SIGN_IN = JSON.stringify({ email: USER.email, password: USER.password });
const SIGN_UP = JSON.stringify({ ...USER, email: 'bench-[<id>]@example.com' });
const INVALID = '{}';
const PASSED_THROUGH = ['WORKERS', 'HASH_CONCURRENCY', 'HASH_QUEUE_MAX', 'HASH_THREAD_NICE', 'ARGON2_MEMORY_KIB', 'ARGON2_TIME_COST', 'ARGON2_PARALLELISM'];
const TARGETS = { signInPerRaw: 0.95, goodputPerRaw: 0.9, shedP99Ms: 50, invalidPerBare: 0.5, mePerBare: 0.5, refreshPerBare: 0.2 };
const CHAINS = 64;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The entry `npm start` runs, compiled, and the node options it runs it with (read from package.json as the tests read
 * it): the benchmark measures the service as it is started, and runs its bare routes with the same options.
 */
const started = (): { entry: string; nodeArgs: string[] } => {
  const { node, entry } = startEntry();
  return { entry: join('dist', entry), nodeArgs: node };
};

/** Signs the bench user in: its access token and refresh token (one more session). */
const signInOnce = async (service: Server): Promise<{ accesstoken: string; refreshtoken: string }> => {
  const res = await fetch(`${service.url}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: SIGN_IN });
  if (res.status !== 201) throw new Error(`signing the bench user in failed: ${res.status}`);
  return ((await res.json()) as { data: { accesstoken: string; refreshtoken: string } }).data;
};

const signUp = async (service: Server) => {
  const res = await fetch(`${service.url}/auth/sign-up`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(USER) });
  if (res.status !== 201) throw new Error(`seeding the bench user failed: ${res.status}`);
};

async function withPeakRss<T>(service: Server, work: () => Promise<T>): Promise<T & { peakRssMiB: number }> {
  let peakRssMiB = 0;
  const sampler = setInterval(() => (peakRssMiB = Math.max(peakRssMiB, service.memory().rssMiB)), 100);
  try {
    return { ...(await work()), peakRssMiB };
  } finally {
    clearInterval(sampler);
  }
}

async function main(): Promise<void> {
  delete process.env['UV_THREADPOOL_SIZE'];
  const passed = Object.fromEntries(PASSED_THROUGH.flatMap((name) => (process.env[name] === undefined ? [] : [[name, String(process.env[name])]])));
  const config = loadConfig(passed);
  const hashConcurrency = config.hashing.concurrency;
  const poolSize = threadPoolSizeFor(hashConcurrency);
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  process.stderr.write('building dist/ (the service runs as `npm start` runs it)...\n');
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'account-bench-'));
  const env = { NODE_ENV: 'development', DATA_DIR: join(dataDir, 'service'), LOG_LEVEL: 'info', STORAGE: 'lmdb', RATE_LIMIT_MAX: '1000000', THROTTLE_MAX_FAILURES: '1000', SESSIONS_MAX_PER_ACCOUNT: '1000', ...passed };
  const { entry, nodeArgs } = started();
  const service = await startServer(entry, env, join(dataDir, 'service.log'), nodeArgs);
  const reference = await startServer(entry, { ...env, DATA_DIR: join(dataDir, 'reference'), HASH_CONCURRENCY: '1' }, join(dataDir, 'reference.log'), nodeArgs);
  let bare: Server | undefined;
  let featured: Server | undefined;
  try {
    process.stderr.write(`service ${service.url} (${entry}), ${CPUS} CPUs, WORKERS ${config.workers}, HASH_CONCURRENCY ${hashConcurrency}, pool ${poolSize}, argon2 m=${config.argon2.memoryKiB} t=${config.argon2.timeCost} p=${config.argon2.parallelism}\n`);
    await signUp(service);
    await signUp(reference);
    const { accesstoken } = await signInOnce(service);
    const meBody = await (await fetch(`${service.url}/auth/me`, { headers: { authorization: `Bearer ${accesstoken}` } })).text();
    bare = await startServer('bench/bare-server.ts', { BARE_ME_BODY: meBody }, join(dataDir, 'bare.log'), nodeArgs);
    const floor = bare;
    featured = await startServer('bench/featured-server.ts', { BARE_ME_BODY: meBody }, join(dataDir, 'featured.log'), nodeArgs);

    process.stderr.write('(a) raw argon2id verify at the service\'s pool size, interleaved with (b) sign-in at saturation...\n');
    const saturation = Math.min(hashConcurrency + config.hashing.maxQueue, 4 * hashConcurrency);
    const signInLoad = (seconds: number) => load({ url: service.url, path: '/auth/sign-in', body: SIGN_IN, connections: saturation, seconds, server: service }, 201);
    await signInLoad(2);
    await load({ url: reference.url, path: '/auth/sign-in', body: SIGN_IN, connections: 4, seconds: 1, server: reference }, 201);
    // Threads are counted in one process: with WORKERS above 1 the service is several (its pool checks are left out).
    const oneProcess = config.workers === 1;
    const poolThreads = hashConcurrency === 1 || !oneProcess ? NaN : threadCpuTicks(service.child.pid ?? NaN).size - threadCpuTicks(reference.child.pid ?? NaN).size + 1;
    await reference.stop();
    const raws: number[] = [];
    const signIns: LoadResult[] = [];
    let busyThreads = Infinity;
    for (let i = 0; i < 2; i += 1) {
      raws.push(await rawVerifyThroughput(config.argon2, poolSize, hashConcurrency, 3));
      const before = threadCpuTicks(service.child.pid ?? NaN);
      signIns.push(await signInLoad(5));
      if (oneProcess) busyThreads = Math.min(busyThreads, busyWorkerThreads(service.child.pid ?? NaN, before, threadCpuTicks(service.child.pid ?? NaN)));
    }
    const rawCeiling = raws.reduce((sum, value) => sum + value, 0) / raws.length;
    const signIn = combine(signIns);
    process.stderr.write('(b) sign-up at saturation...\n');
    const signUps = await load({ url: service.url, path: '/auth/sign-up', body: SIGN_UP, connections: saturation, seconds: 6, uniqueIds: true, server: service }, 201);

    const overloadConnections = 10 * (hashConcurrency + config.hashing.maxQueue);
    process.stderr.write(`(d) 10x overload: ${overloadConnections} connections of sign-in...\n`);
    const overload = await withPeakRss(service, async () =>
      combine([
        await load({ url: service.url, path: '/auth/sign-in', body: SIGN_IN, connections: overloadConnections, seconds: 6, server: service }, 201),
        await load({ url: service.url, path: '/auth/sign-in', body: SIGN_IN, connections: overloadConnections, seconds: 6, server: service }, 201),
      ]),
    );

    process.stderr.write('(c) the 400 path against bare Fastify...\n');
    const invalidLoad = (server: Server, seconds: number) => load({ url: server.url, path: '/auth/sign-in', body: INVALID, connections: 50, seconds, server }, 400);
    await invalidLoad(service, 1);
    await invalidLoad(bare, 1);
    const [invalid, bareFastify] = await interleaved(() => invalidLoad(service, 3), () => invalidLoad(floor, 3), 2);

    process.stderr.write('(e) GET /auth/me against a bare route answering the same bytes...\n');
    const meLoad = (server: Server, seconds: number, headers: Record<string, string> = {}) =>
      load({ url: server.url, path: '/auth/me', method: 'GET', body: '', headers, connections: CHAINS, seconds, server }, 200);
    const bearer = { authorization: `Bearer ${(await signInOnce(service)).accesstoken}` };
    await meLoad(service, 1, bearer);
    await meLoad(floor, 1);
    await meLoad(featured, 1);
    const [me, bareMe] = await interleaved(() => meLoad(service, 3, bearer), () => meLoad(floor, 3), 2);
    const withFeatures = featured;
    const [featuredMe] = await interleaved(() => meLoad(withFeatures, 3), () => meLoad(floor, 1), 2);

    process.stderr.write(`(f) refresh: ${CHAINS} clients, each rotating its own session, every rotation durable before its answer...\n`);
    const chains: string[] = [];
    for (let i = 0; i < CHAINS; i++) chains.push((await signInOnce(service)).refreshtoken);
    const refresh = await load({ url: service.url, path: '/auth/refresh', body: '', chains, connections: CHAINS, seconds: 6, server: service }, 200);

    process.stderr.write(`(g) what work costs: the bare route spending ${WORK_POINTS_MICROS.join(', ')} µs more CPU per answer, each interleaved with the bare route...\n`);
    const workLoad = (micros: number, seconds: number) => load({ url: floor.url, path: `/work/${micros}`, method: 'GET', body: '', connections: CHAINS, seconds, server: floor }, 200);
    const curve: WorkPoint[] = [];
    for (const micros of WORK_POINTS_MICROS) {
      const [work, bareRound] = await interleaved(() => workLoad(micros, 3), () => meLoad(floor, 3), 1);
      curve.push({ micros, perBare: round(work.okPerSecond / bareRound.okPerSecond, 3), loopMicros: round(loopMicrosPerResponse(work)) });
    }

    const memory = service.memory();
    await Promise.all([service.stop(), featured.stop()]);
    const scaling = await scalingTable({ entry, nodeArgs, env, dataDir, rawCeiling, saturation, connections: CHAINS, signIn: SIGN_IN, signUp: JSON.stringify(USER) });
    const oidc = await oidcGrants({ entry, nodeArgs, env, dataDir, connections: CHAINS });
    process.stderr.write('(j) the service on PostgreSQL on this host: (a), (b), (e) and (f) again, against the bare route of (e), then its round trips per request...\n');
    const postgres = await postgresPart({
      entry, nodeArgs, env, dataDir, argon2: config.argon2, poolSize, hashConcurrency, saturation, connections: CHAINS, floor, user: { email: USER.email, password: USER.password }, signUp: SIGN_UP,
    }).catch((error: unknown) => ({ skipped: `it failed: ${error instanceof Error ? error.message : String(error)}` }));
    await bare.stop();

    const shedP99 = overload.p99ByStatus['503'] ?? NaN;
    const shedPerSecond = (overload.byStatus['503'] ?? 0) / overload.seconds;
    const rows = [
      { scenario: '(a) raw argon2id verify', concurrency: hashConcurrency, 'ok/s': round(rawCeiling), p50ms: '', p99ms: '', 'cpu µs/resp': '', 'loop µs/resp': '', statuses: `pool ${poolSize}` },
      ...([
        ['(b) sign-in at saturation', saturation, signIn],
        ['(b) sign-up at saturation', saturation, signUps],
        ['(d) 10x overload, sign-in (201)', overloadConnections, overload],
        ['(c) 400 path (service)', 50, invalid],
        ['(c) 400 path (bare Fastify)', 50, bareFastify],
        ['(e) GET /auth/me (service)', CHAINS, me],
        ['(e) GET /auth/me bytes (bare Fastify)', CHAINS, bareMe],
        ['(e) same bytes, bare + log, rate limit, histogram', CHAINS, featuredMe],
        ['(f) refresh, one chain per client', CHAINS, refresh],
      ] as const).map(([scenario, concurrency, r]) => ({
        scenario,
        concurrency,
        'ok/s': round(r.okPerSecond),
        p50ms: round(r.p50),
        p99ms: round(r.p99),
        'cpu µs/resp': round(cpuMicrosPerResponse(r)),
        'loop µs/resp': round(loopMicrosPerResponse(r)),
        statuses: JSON.stringify(r.byStatus),
      })),
    ];
    const ratios = {
      signInPerRaw: round(signIn.okPerSecond / rawCeiling, 3),
      goodputPerRaw: round(overload.okPerSecond / rawCeiling, 3),
      invalidPathPerBareFastify: round(invalid.okPerSecond / bareFastify.okPerSecond, 3),
      invalidPathCpuPerBareFastify: round(cpuMicrosPerResponse(bareFastify) / cpuMicrosPerResponse(invalid), 3),
      mePerBareFastify: round(me.okPerSecond / bareMe.okPerSecond, 3),
      refreshPerBareFastify: round(refresh.okPerSecond / bareMe.okPerSecond, 3),
      featuredPerBareFastify: round(featuredMe.okPerSecond / bareMe.okPerSecond, 3),
      mePerFeatured: round(me.okPerSecond / featuredMe.okPerSecond, 3),
      oidcCodePerBareProvider: oidc.codePerBare,
      oidcRefreshPerBareProvider: oidc.refreshPerBare,
    };
    /** Read off the curve: the work per answer each target allows, and the work the service's routes serve like. */
    const budget = (share: number) => {
      const micros = budgetFor(curve, share);
      return micros === null ? null : round(micros);
    };
    const workBudgets = {
      meTargetMicros: budget(TARGETS.mePerBare),
      meServesLikeMicros: budget(ratios.mePerBareFastify),
      featuredServesLikeMicros: budget(ratios.featuredPerBareFastify),
      refreshTargetMicros: budget(TARGETS.refreshPerBare),
      refreshServesLikeMicros: budget(ratios.refreshPerBareFastify),
    };
    const micros = (value: number | null) => (value === null ? 'beyond the curve' : `${value} µs`);
    const meets = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const invalidBecause = [
      ...(busyThreads < hashConcurrency ? [`only ${busyThreads} threads besides the event loop worked during sign-in at saturation (HASH_CONCURRENCY ${hashConcurrency})`] : []),
      ...(poolThreads < hashConcurrency ? [`the pool grew by ${poolThreads - 1} threads from HASH_CONCURRENCY 1 to ${hashConcurrency}: about ${poolThreads} hashing threads`] : []),
    ];
    console.table(rows);
    console.log(`${CPUS} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average at start ${loadAverageAtStart.join(' ')}; the load generator runs on the same CPUs`);
    console.log(`hashing threads: ${busyThreads} busy besides the event loop at saturation; pool by thread count ${Number.isNaN(poolThreads) ? 'n/a' : poolThreads} (HASH_CONCURRENCY ${hashConcurrency}, UV_THREADPOOL_SIZE ${poolSize})`);
    console.log(`sign-in at saturation / raw ceiling = ${ratios.signInPerRaw} (target >= ${TARGETS.signInPerRaw}: ${meets(ratios.signInPerRaw >= TARGETS.signInPerRaw)})`);
    console.log(`goodput at 10x overload / raw ceiling = ${ratios.goodputPerRaw} (target >= ${TARGETS.goodputPerRaw}: ${meets(ratios.goodputPerRaw >= TARGETS.goodputPerRaw)}); shed ${round(shedPerSecond)}/s, shed p99 ${round(shedP99)} ms (target <= ${TARGETS.shedP99Ms}: ${meets(shedP99 <= TARGETS.shedP99Ms)}), accepted p99 ${round(overload.p99)} ms, peak RSS ${round(overload.peakRssMiB)} MiB`);
    console.log(`400 path / bare Fastify = ${ratios.invalidPathPerBareFastify} (target >= ${TARGETS.invalidPerBare}: ${meets(ratios.invalidPathPerBareFastify >= TARGETS.invalidPerBare)}); by server CPU per response: ${ratios.invalidPathCpuPerBareFastify}`);
    console.log(`GET /auth/me / bare Fastify = ${ratios.mePerBareFastify} (target >= ${TARGETS.mePerBare}: ${meets(ratios.mePerBareFastify >= TARGETS.mePerBare)})`);
    console.log(`  the same bytes with the service's logger (access line), rate limit and histogram only = ${ratios.featuredPerBareFastify} of bare; GET /auth/me / that = ${ratios.mePerFeatured}`);
    console.log(`refresh (${CHAINS} chains, durable) = ${round(refresh.okPerSecond)}/s, / bare GET /auth/me = ${ratios.refreshPerBareFastify} (target >= ${TARGETS.refreshPerBare}: ${meets(ratios.refreshPerBareFastify >= TARGETS.refreshPerBare)}); statuses ${JSON.stringify(refresh.byStatus)}`);
    console.log(`the bare route with more CPU per answer, as a share of bare: ${curve.map((point) => `+${point.micros} µs ${point.perBare}`).join(', ')}`);
    console.log(`  so GET /auth/me's target allows ${micros(workBudgets.meTargetMicros)} of work per answer beyond the bare route; GET /auth/me serves like ${micros(workBudgets.meServesLikeMicros)}, the featured route like ${micros(workBudgets.featuredServesLikeMicros)}; refresh's target allows ${micros(workBudgets.refreshTargetMicros)}, refresh serves like ${micros(workBudgets.refreshServesLikeMicros)}`);
    console.log(`(h) scaling, one row per WORKERS value, each against the raw ceiling of (a) (${round(rawCeiling)}/s) and a bare route in as many processes:`);
    console.table(
      scaling.map((r) => ({
        WORKERS: r.workers,
        'sign-in/s': r.signInPerSecond,
        'sign-in / raw': r.signInPerRaw,
        'me/s': r.mePerSecond,
        'bare me/s': r.bareMePerSecond,
        'me / bare': r.mePerBare,
        'refresh/s': r.refreshPerSecond,
        'refresh / bare': r.refreshPerBare,
        'other statuses': JSON.stringify(r.unwanted),
      })),
    );
    for (const line of oidcGrantsReport(oidc)) console.log(line);
    const beside = postgresReport({ signIn, signInPerRaw: ratios.signInPerRaw, signUp: signUps, me, mePerBare: ratios.mePerBareFastify, refresh, refreshPerBare: ratios.refreshPerBareFastify }, postgres);
    if (beside.table.length > 0) console.table(beside.table);
    for (const line of beside.lines) console.log(line);
    console.log(invalidBecause.length === 0 ? 'run VALID: the service hashes on at least HASH_CONCURRENCY threads' : `run NOT VALID: ${invalidBecause.join('; ')}`);

    const results = {
      date: new Date().toISOString(),
      valid: invalidBecause.length === 0,
      invalidBecause,
      machine: { loadAverageAtStart, cpus: CPUS, model: cpus()[0]?.model ?? 'unknown', node: process.version },
      service: { entry, nodeArgs, workers: config.workers, argon2: config.argon2, hashing: config.hashing, uvThreadpoolSize: poolSize, storage: 'lmdb', logLevel: 'info' },
      hashingThreads: { busyAtSaturation: busyThreads, byPoolGrowth: Number.isNaN(poolThreads) ? null : poolThreads },
      rawArgon2VerifyPerSecond: { mean: round(rawCeiling), rounds: raws.map((value) => round(value)), poolSize, concurrency: hashConcurrency },
      signIn,
      signUp: signUps,
      overload: { connections: overloadConnections, ...overload, shedPerSecond: round(shedPerSecond), shedP99Ms: round(shedP99), peakRssMiB: round(overload.peakRssMiB) },
      invalidPath: invalid,
      bareFastify,
      me,
      bareMe,
      featuredMe,
      refresh: { chains: CHAINS, ...refresh },
      peakRssMiB: round(memory.peakRssMiB),
      workCurve: curve,
      workBudgets,
      scaling: { rawCeiling: round(rawCeiling), rows: scaling },
      oidc,
      postgres,
      ratios,
      targets: TARGETS,
    };
    writeFileSync(join(import.meta.dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    if (invalidBecause.length > 0) process.exitCode = 1;
  } finally {
    await Promise.all([service.stop(), reference.stop(), bare?.stop(), featured?.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
