import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../src/infrastructure/config/config.js';
import { postgresUnavailable, startPostgres } from '../tests/support/postgres.js';
import { type LoadResult, combine, interleaved, load } from './load.js';
import { type WireCounts, countingProxy } from './pg-wire-count.js';
import { type Server, startServer } from './processes.js';
import { rawVerifyThroughput } from './raw-argon2.js';

/** Connections in the service's PostgreSQL pool (PostgresStore.open's default). */
export const POOL_MAX = 10;
/** What one round trip over a LAN adds, low and high, in ms: the hop the figures below leave out. */
export const HOP_MS = [0.1, 0.5] as const;
/** Requests of each kind made one at a time through the counting proxy. */
const COUNTED = 20;
/** The pause after each counted answer, for the work it left (the outbox's relay) to reach the database. */
const SETTLE_MS = 100;
const KEYS = ['roundTrips', 'statements', 'transactions'] as const;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export interface PostgresSetup {
  readonly entry: string;
  readonly nodeArgs: string[];
  /** The benchmark's service environment; STORAGE, DATABASE_URL and DATA_DIR are set here. */
  readonly env: Record<string, string>;
  readonly dataDir: string;
  readonly argon2: Config['argon2'];
  readonly poolSize: number;
  readonly hashConcurrency: number;
  /** Connections of sign-in and sign-up at saturation, and of GET /auth/me and refresh (the benchmark's CHAINS). */
  readonly saturation: number;
  readonly connections: number;
  /** The bare route answering GET /auth/me's bytes, already running (the benchmark's floor). */
  readonly floor: Server;
  readonly user: { readonly email: string; readonly password: string };
  readonly signUp: string;
}

/** Per request of one kind: on its path (between sending it and its answer), and after its answer (the outbox's relay, sweeps). */
export interface Counted extends WireCounts {
  readonly afterAnswer: WireCounts;
}

/** Per request of each kind, measured through the counting proxy. */
export type PerRequest = Record<'signIn' | 'signUp' | 'me' | 'refresh', Counted>;

export interface PostgresFigures {
  readonly storage: 'postgres';
  readonly sameHost: true;
  /** fsync on: every commit flushed before it resolves, as LMDB's are. */
  readonly durable: true;
  readonly poolMax: number;
  readonly rawArgon2VerifyPerSecond: { mean: number; rounds: number[] };
  readonly signIn: LoadResult;
  readonly signUp: LoadResult;
  readonly me: LoadResult;
  readonly bareMe: LoadResult;
  readonly refresh: LoadResult & { chains: number };
  readonly ratios: { signInPerRaw: number; mePerBareFastify: number; refreshPerBareFastify: number; signUpPerSecond: number };
  readonly perRequest: PerRequest;
  /** Latency a hop of HOP_MS[0] and HOP_MS[1] ms per round trip adds to one request, in ms; and, at the high hop, the commits per second the pool's connections allow. */
  readonly hop: { msPerRoundTrip: readonly number[]; addedMs: Record<keyof PerRequest, number[]>; poolCapPerSecondAtHighHop: Record<keyof PerRequest, number> };
  readonly peakRssMiB: number;
  readonly seconds: number;
}

export type PostgresPart = PostgresFigures | { readonly skipped: string };

const post = async (server: Server, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (res.status !== 200 && res.status !== 201) throw new Error(`${path} answered ${res.status} on PostgreSQL`);
  return ((await res.json()) as { data: { accesstoken: string; refreshtoken: string } }).data;
};

/** Round trips, statements and transactions per request of each kind, one request at a time through the proxy. */
/** (The same DATA_DIR as the measured service: its generated personal-data key is the one the database was sealed under.) */
async function countPerRequest(setup: PostgresSetup, databaseUrl: string): Promise<PerRequest> {
  const proxy = await countingProxy(databaseUrl);
  const env = { ...setup.env, STORAGE: 'postgres', DATABASE_URL: proxy.url, DATA_DIR: join(setup.dataDir, 'pg-service') };
  const service = await startServer(setup.entry, env, join(setup.dataDir, 'pg-counted.log'), setup.nodeArgs);
  try {
    const credentials = { email: setup.user.email, password: setup.user.password };
    const perRequest = async (each: (i: number) => Promise<unknown>): Promise<Counted> => {
      await each(-1);
      await sleep(SETTLE_MS);
      const onPath: WireCounts = { roundTrips: 0, statements: 0, transactions: 0 };
      const after: WireCounts = { roundTrips: 0, statements: 0, transactions: 0 };
      const add = (sum: WireCounts, from: WireCounts, to: WireCounts) => {
        for (const key of KEYS) sum[key] += to[key] - from[key];
      };
      for (let i = 0; i < COUNTED; i++) {
        const sent = proxy.counts();
        await each(i);
        const answered = proxy.counts();
        await sleep(SETTLE_MS);
        add(onPath, sent, answered);
        add(after, answered, proxy.counts());
      }
      const per = (sum: WireCounts): WireCounts => ({ roundTrips: round(sum.roundTrips / COUNTED, 2), statements: round(sum.statements / COUNTED, 2), transactions: round(sum.transactions / COUNTED, 2) });
      return { ...per(onPath), afterAnswer: per(after) };
    };
    const signUp = await perRequest((i) => post(service, '/auth/sign-up', { ...JSON.parse(setup.signUp), email: `pg-count-${i + 1}@example.com` }));
    const signIn = await perRequest(() => post(service, '/auth/sign-in', credentials));
    const { accesstoken, refreshtoken } = await post(service, '/auth/sign-in', credentials);
    const me = await perRequest(async () => {
      const res = await fetch(`${service.url}/auth/me`, { headers: { authorization: `Bearer ${accesstoken}` } });
      if (res.status !== 200) throw new Error(`GET /auth/me answered ${res.status} on PostgreSQL`);
      await res.arrayBuffer();
    });
    let token = refreshtoken;
    const refresh = await perRequest(async () => (token = (await post(service, '/auth/refresh', { refreshtoken: token })).refreshtoken));
    return { signIn, signUp, me, refresh };
  } finally {
    await service.stop();
    await proxy.close();
  }
}

/**
 * The hop's cost: its latency once per round trip on the request's path; and, as every round trip holds a connection of
 * the pool for at least the hop, those after the answer included, at most POOL_MAX / (round trips × hop) requests a second.
 */
const hopOf = (perRequest: PerRequest): PostgresFigures['hop'] => {
  const kinds = Object.keys(perRequest) as (keyof PerRequest)[];
  const high = HOP_MS[1];
  const held = (kind: keyof PerRequest) => Math.max(1, perRequest[kind].roundTrips + perRequest[kind].afterAnswer.roundTrips);
  return {
    msPerRoundTrip: HOP_MS,
    addedMs: Object.fromEntries(kinds.map((kind) => [kind, HOP_MS.map((ms) => round(perRequest[kind].roundTrips * ms, 2))])) as Record<keyof PerRequest, number[]>,
    poolCapPerSecondAtHighHop: Object.fromEntries(kinds.map((kind) => [kind, Math.round((POOL_MAX * 1000) / (held(kind) * high))])) as Record<keyof PerRequest, number>,
  };
};

/**
 * The benchmark's (a), (b), (e) and (f) again with the service on PostgreSQL: a throw-away cluster on this host
 * (fsync on), sign-in interleaved with raw argon2id rounds, GET /auth/me with the bare route; then the round trips of
 * each kind of request, counted through a proxy. Skipped, with the reason, where PostgreSQL is not installed.
 */
export async function postgresPart(setup: PostgresSetup): Promise<PostgresPart> {
  const missing = process.env['BENCH_POSTGRES'] === '0' ? 'BENCH_POSTGRES=0' : postgresUnavailable();
  if (missing) return { skipped: missing };
  const began = performance.now();
  const cluster = await startPostgres({ durable: true });
  let service: Server | undefined;
  try {
    const env = { ...setup.env, STORAGE: 'postgres', DATABASE_URL: cluster.url, DATA_DIR: join(setup.dataDir, 'pg-service') };
    const pg = await startServer(setup.entry, env, join(setup.dataDir, 'pg-service.log'), setup.nodeArgs);
    service = pg;
    await post(pg, '/auth/sign-up', { ...JSON.parse(setup.signUp), email: setup.user.email });
    const signInBody = JSON.stringify(setup.user);
    const signInLoad = (seconds: number) => load({ url: pg.url, path: '/auth/sign-in', body: signInBody, connections: setup.saturation, seconds, server: pg }, 201);
    await signInLoad(2);
    const raws: number[] = [];
    const signIns: LoadResult[] = [];
    for (let i = 0; i < 2; i++) {
      raws.push(await rawVerifyThroughput(setup.argon2, setup.poolSize, setup.hashConcurrency, 3));
      signIns.push(await signInLoad(5));
    }
    const raw = raws.reduce((sum, value) => sum + value, 0) / raws.length;
    const signIn = combine(signIns);
    const signUp = await load({ url: pg.url, path: '/auth/sign-up', body: setup.signUp, connections: setup.saturation, seconds: 6, uniqueIds: true, server: pg }, 201);

    const bearer = { authorization: `Bearer ${(await post(pg, '/auth/sign-in', setup.user)).accesstoken}` };
    const meLoad = (server: Server, seconds: number, headers: Record<string, string> = {}) =>
      load({ url: server.url, path: '/auth/me', method: 'GET', body: '', headers, connections: setup.connections, seconds, server }, 200);
    await meLoad(pg, 1, bearer);
    await meLoad(setup.floor, 1);
    const [me, bareMe] = await interleaved(() => meLoad(pg, 3, bearer), () => meLoad(setup.floor, 3), 2);

    const chains: string[] = [];
    for (let i = 0; i < setup.connections; i++) chains.push((await post(pg, '/auth/sign-in', setup.user)).refreshtoken);
    const refreshLoad = await load({ url: pg.url, path: '/auth/refresh', body: '', chains, connections: setup.connections, seconds: 6, server: pg }, 200);
    const peakRssMiB = round(pg.memory().peakRssMiB);
    await pg.stop();

    const perRequest = await countPerRequest(setup, cluster.url);
    return {
      storage: 'postgres',
      sameHost: true,
      durable: true,
      poolMax: POOL_MAX,
      rawArgon2VerifyPerSecond: { mean: round(raw), rounds: raws.map((value) => round(value)) },
      signIn,
      signUp,
      me,
      bareMe,
      refresh: { chains: setup.connections, ...refreshLoad },
      ratios: {
        signInPerRaw: round(signIn.okPerSecond / raw, 3),
        mePerBareFastify: round(me.okPerSecond / bareMe.okPerSecond, 3),
        refreshPerBareFastify: round(refreshLoad.okPerSecond / bareMe.okPerSecond, 3),
        signUpPerSecond: round(signUp.okPerSecond),
      },
      perRequest,
      hop: hopOf(perRequest),
      peakRssMiB,
      seconds: round((performance.now() - began) / 1000),
    };
  } finally {
    await service?.stop();
    cluster.stop();
  }
}
