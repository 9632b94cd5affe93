import type { LoadResult } from './load.js';
import type { PostgresPart } from './postgres.js';

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The LMDB figures of the same run that the PostgreSQL ones stand beside. */
export interface LmdbBeside {
  readonly signIn: LoadResult;
  readonly signInPerRaw: number;
  readonly signUp: LoadResult;
  readonly me: LoadResult;
  readonly mePerBare: number;
  readonly refresh: LoadResult;
  readonly refreshPerBare: number;
}

/** The part's table (LMDB and PostgreSQL side by side) and lines of the benchmark's report. */
export function postgresReport(lmdb: LmdbBeside, part: PostgresPart): { table: Record<string, string | number>[]; lines: string[] } {
  if ('skipped' in part) return { table: [], lines: [`(j) PostgreSQL (same host): skipped, ${part.skipped}`] };
  const pair = (figure: string, a: LoadResult, b: LoadResult, ratioA: number | string, ratioB: number | string) => ({
    figure,
    'LMDB ok/s': round(a.okPerSecond),
    'LMDB ratio': ratioA,
    'LMDB p50/p99 ms': `${round(a.p50)} / ${round(a.p99)}`,
    'PostgreSQL ok/s': round(b.okPerSecond),
    'PostgreSQL ratio': ratioB,
    'PostgreSQL p50/p99 ms': `${round(b.p50)} / ${round(b.p99)}`,
  });
  const table = [
    pair('sign-in at saturation (÷ raw argon2id)', lmdb.signIn, part.signIn, lmdb.signInPerRaw, part.ratios.signInPerRaw),
    pair('sign-up at saturation', lmdb.signUp, part.signUp, '', ''),
    pair('GET /auth/me (÷ bare route)', lmdb.me, part.me, lmdb.mePerBare, part.ratios.mePerBareFastify),
    pair('refresh, durable (÷ bare route)', lmdb.refresh, part.refresh, lmdb.refreshPerBare, part.ratios.refreshPerBareFastify),
  ];
  const kinds = [['sign-in', 'signIn'], ['sign-up', 'signUp'], ['GET /auth/me', 'me'], ['refresh', 'refresh']] as const;
  const [low, high] = part.hop.msPerRoundTrip;
  return {
    table,
    lines: [
      `(j) PostgreSQL (same host): a throw-away PostgreSQL cluster on this host (fsync on), pool ${part.poolMax}, the measurements of (a), (b), (e) and (f) again (${part.seconds} s); raw argon2id ${part.rawArgon2VerifyPerSecond.mean}/s in its own rounds; statuses sign-in ${JSON.stringify(part.signIn.byStatus)}, sign-up ${JSON.stringify(part.signUp.byStatus)}, refresh ${JSON.stringify(part.refresh.byStatus)}`,
      `  round trips to PostgreSQL per request, counted one request at a time through a proxy, on its path (+ after its answer): ${kinds.map(([name, kind]) => `${name} ${part.perRequest[kind].roundTrips} (+ ${part.perRequest[kind].afterAnswer.roundTrips}) in ${part.perRequest[kind].transactions} (+ ${part.perRequest[kind].afterAnswer.transactions}) transactions`).join('; ')}`,
      `  the database is on the same host: a network hop adds its latency once per round trip, at ${low} to ${high} ms a LAN round trip ${kinds.map(([name, kind]) => `${name} +${part.hop.addedMs[kind].join(' to ')} ms`).join(', ')} of latency per request;`,
      `  not throughput while the pool is not the limit: at ${high} ms its ${part.poolMax} connections, each held a hop per round trip (those after the answer too), allow about ${kinds.map(([name, kind]) => `${part.hop.poolCapPerSecondAtHighHop[kind]} ${name}/s`).join(', ')} per process`,
    ],
  };
}
