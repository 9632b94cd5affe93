import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { type LoadResult, interleaved, load } from './load.js';
import { type Server, startServer } from './processes.js';

/** The WORKERS values the scaling table measures: 1, 2 and the host's cores (once each). */
export const scalingWorkers = (cores = availableParallelism()): number[] => [...new Set([1, 2, cores])].sort((a, b) => a - b);

export interface ScalingRow {
  readonly workers: number;
  readonly signInPerSecond: number;
  /** Sign-in at saturation ÷ the raw argon2id ceiling of the host (the same ceiling for every row). */
  readonly signInPerRaw: number;
  readonly mePerSecond: number;
  /** The bare route answering the same bytes, in as many processes. */
  readonly bareMePerSecond: number;
  readonly mePerBare: number;
  readonly refreshPerSecond: number;
  readonly refreshPerBare: number;
  /** Answers of any other status than the one wanted, per path: a row with any is not a figure of the path. */
  readonly unwanted: Record<string, number>;
}

export interface ScalingSetup {
  readonly entry: string;
  readonly nodeArgs: string[];
  /** The service's environment (the benchmark's); WORKERS and DATA_DIR are set per row. */
  readonly env: Record<string, string>;
  readonly dataDir: string;
  readonly rawCeiling: number;
  /** Connections that keep every hashing thread busy without shedding (the benchmark's saturation). */
  readonly saturation: number;
  readonly connections: number;
  readonly signIn: string;
  readonly signUp: string;
}

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;
const unwanted = (result: LoadResult, wanted: number): number => result.total - (result.byStatus[String(wanted)] ?? 0);

async function post(server: Server, path: string, body: string): Promise<{ status: number; data: Record<string, string> }> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, data: ((await res.json()) as { data: Record<string, string> }).data };
}

/**
 * One row of the scaling table: the service and the bare route each started with `workers` processes on a fresh
 * store, then sign-in at saturation (÷ the raw ceiling), `GET /auth/me` interleaved with the bare route, and refresh
 * (one chain per connection, every rotation durable) ÷ the same bare route.
 */
async function row(setup: ScalingSetup, workers: number): Promise<ScalingRow> {
  const dir = join(setup.dataDir, `workers-${workers}`);
  const service = await startServer(setup.entry, { ...setup.env, WORKERS: String(workers), DATA_DIR: join(dir, 'service') }, `${dir}-service.log`, setup.nodeArgs);
  let bare: Server | undefined;
  try {
    if ((await post(service, '/auth/sign-up', setup.signUp)).status !== 201) throw new Error(`WORKERS ${workers}: seeding the bench user failed`);
    const sessions: Record<string, string>[] = [];
    for (let i = 0; i <= setup.connections; i += 1) sessions.push((await post(service, '/auth/sign-in', setup.signIn)).data);
    const bearer = { authorization: `Bearer ${sessions[0]?.['accesstoken']}` };
    const meBody = await (await fetch(`${service.url}/auth/me`, { headers: bearer })).text();
    bare = await startServer('bench/bare-server.ts', { BARE_ME_BODY: meBody, WORKERS: String(workers) }, `${dir}-bare.log`, setup.nodeArgs);
    const floor = bare;
    const signInLoad = (seconds: number) => load({ url: service.url, path: '/auth/sign-in', body: setup.signIn, connections: setup.saturation, seconds, server: service }, 201);
    const meLoad = (server: Server, seconds: number, headers: Record<string, string> = {}) =>
      load({ url: server.url, path: '/auth/me', method: 'GET', body: '', headers, connections: setup.connections, seconds, server }, 200);
    await signInLoad(2);
    const signIn = await signInLoad(5);
    await meLoad(service, 1, bearer);
    await meLoad(floor, 1);
    const [me, bareMe] = await interleaved(() => meLoad(service, 3, bearer), () => meLoad(floor, 3), 2);
    const chains = sessions.slice(1).map((session) => session['refreshtoken'] ?? '');
    const refresh = await load({ url: service.url, path: '/auth/refresh', body: '', chains, connections: setup.connections, seconds: 6, server: service }, 200);
    return {
      workers,
      signInPerSecond: round(signIn.okPerSecond, 1),
      signInPerRaw: round(signIn.okPerSecond / setup.rawCeiling),
      mePerSecond: round(me.okPerSecond, 0),
      bareMePerSecond: round(bareMe.okPerSecond, 0),
      mePerBare: round(me.okPerSecond / bareMe.okPerSecond),
      refreshPerSecond: round(refresh.okPerSecond, 0),
      refreshPerBare: round(refresh.okPerSecond / bareMe.okPerSecond),
      unwanted: { signIn: unwanted(signIn, 201), me: unwanted(me, 200), refresh: unwanted(refresh, 200) },
    };
  } finally {
    await Promise.all([service.stop(), bare?.stop()]);
  }
}

/** The scaling table: one row per WORKERS value of `scalingWorkers`, measured one after another in this run. */
export async function scalingTable(setup: ScalingSetup, workers = scalingWorkers()): Promise<ScalingRow[]> {
  const rows: ScalingRow[] = [];
  for (const count of workers) {
    process.stderr.write(`(h) scaling: WORKERS ${count}: sign-in, GET /auth/me against the bare route in as many processes, refresh...\n`);
    rows.push(await row(setup, count));
  }
  return rows;
}
