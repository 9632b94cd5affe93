import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly path: string;
  readonly body: string;
  readonly connections: number;
  readonly seconds: number;
  /** Replace `[<id>]` in the body with a fresh id per request (unique e-mails for sign-up). */
  readonly uniqueIds?: boolean;
  /** GET (no body) or POST (the default). */
  readonly method?: 'GET' | 'POST';
  /** Headers besides the content type (an authorization). */
  readonly headers?: Record<string, string>;
  /**
   * Refresh chains: the current refresh tokens of as many sessions as connections. Each request takes one and
   * puts back the one its answer gave (`data.refreshtoken`), so every request rotates a session with its current
   * token (autocannon resets a connection's context after each request, so the tokens are shared, not per connection).
   */
  readonly chains?: string[];
  /**
   * One-use bodies (authorization codes, refresh tokens of the OpenID provider): each request sends `body` of the
   * oldest item of `queue`, and `next`, given its answer, may put one back at the end (the rotated refresh token).
   */
  readonly oneUse?: { readonly queue: string[]; readonly body: (item: string) => string; readonly next?: (status: number, body: string) => string | undefined };
  /** End after this many answers instead of after `seconds`; the time is then from the start to the last answer. */
  readonly amount?: number;
  /** The server process, to charge it the CPU time it spent during the load. */
  readonly server?: { cpuMs(): number; eventLoopCpuMs?(): number };
}

export interface LoadResult {
  readonly seconds: number;
  readonly total: number;
  readonly byStatus: Record<string, number>;
  /** Responses with the wanted status per second. */
  readonly okPerSecond: number;
  /** Latency percentiles (ms) of the responses with the wanted status only. */
  readonly p50: number;
  readonly p99: number;
  /** p99 latency (ms) of the responses of each status. */
  readonly p99ByStatus: Record<string, number>;
  readonly errors: number;
  /** CPU time the server spent during the load, in ms (NaN when no server was given). */
  readonly serverCpuMs: number;
  /** CPU time of the server's event loop (main thread) during the load, in ms (NaN when unknown). */
  readonly eventLoopCpuMs: number;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Drives POST `path` with autocannon and keeps the latency of every response with the wanted status. */
export async function load(options: LoadOptions, wantedStatus: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const byStatusLatencies = new Map<number, number[]>();
  const cpuBefore = options.server?.cpuMs() ?? NaN;
  const loopBefore = options.server?.eventLoopCpuMs?.() ?? NaN;
  const chains = options.chains;
  const oneUse = options.oneUse;
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  const instance = autocannon({
    url: options.url + options.path,
    method: options.method ?? 'POST',
    headers: { ...(options.method === 'GET' ? {} : { 'content-type': 'application/json' }), ...options.headers },
    ...(options.method === 'GET' ? {} : { body: options.body }),
    ...(chains
      ? {
          requests: [
            {
              setupRequest: (request: Record<string, unknown>, context: { token?: string | undefined }) => {
                context.token = chains.pop();
                return { ...request, body: JSON.stringify({ refreshtoken: context.token }) };
              },
              onResponse: (status: number, body: string, context: { token?: string | undefined }) => {
                const next = status === 200 ? (JSON.parse(body) as { data: { refreshtoken: string } }).data.refreshtoken : context.token;
                if (next !== undefined) chains.push(next);
              },
            },
          ],
        }
      : {}),
    ...(oneUse
      ? {
          requests: [
            {
              setupRequest: (request: Record<string, unknown>) => ({ ...request, body: oneUse.body(oneUse.queue.shift() ?? '') }),
              onResponse: (status: number, body: string) => {
                const next = oneUse.next?.(status, body);
                if (next !== undefined) oneUse.queue.push(next);
              },
            },
          ],
        }
      : {}),
    ...(options.amount === undefined ? {} : { amount: options.amount }),
    idReplacement: options.uniqueIds ?? false,
    connections: options.connections,
    duration: options.seconds,
    timeout: 30,
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    lastAnswerAt = performance.now();
    if (statusCode === wantedStatus) latencies.push(responseTime);
    const ofStatus = byStatusLatencies.get(statusCode) ?? [];
    ofStatus.push(responseTime);
    byStatusLatencies.set(statusCode, ofStatus);
  });
  const result = await new Promise<any>((resolve, reject) => {
    instance.on('done', resolve);
    instance.on('error', reject);
  });
  const byStatus = Object.fromEntries(Object.entries(result.statusCodeStats as Record<string, { count: number }>).map(([status, stat]) => [status, Number(stat.count)]));
  const sorted = latencies.sort((a, b) => a - b);
  // With an amount, autocannon ends at its next one-second tick after the last answer, and counts that wait.
  const seconds = options.amount === undefined ? result.duration : (lastAnswerAt - startedAt) / 1000;
  return {
    seconds,
    total: Object.values(byStatus).reduce((sum, count) => sum + count, 0),
    byStatus,
    okPerSecond: (byStatus[String(wantedStatus)] ?? 0) / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    p99ByStatus: Object.fromEntries([...byStatusLatencies].map(([status, all]) => [String(status), percentile(all.sort((a, b) => a - b), 99)])),
    errors: result.errors,
    serverCpuMs: (options.server?.cpuMs() ?? NaN) - cpuBefore,
    eventLoopCpuMs: (options.server?.eventLoopCpuMs?.() ?? NaN) - loopBefore,
  };
}

/** Event-loop CPU time per response, in µs. */
export const loopMicrosPerResponse = (result: LoadResult): number => (result.eventLoopCpuMs * 1000) / Math.max(1, result.total);

/** Server CPU time per response, in µs. */
export const cpuMicrosPerResponse = (result: LoadResult): number => (result.serverCpuMs * 1000) / Math.max(1, result.total);

/** Adds up several rounds of one load: counts and CPU summed, throughput over the summed time, median percentiles. */
export const combine = (results: LoadResult[]): LoadResult => {
  const seconds = results.reduce((sum, r) => sum + r.seconds, 0);
  const byStatus: Record<string, number> = {};
  for (const r of results) for (const [status, count] of Object.entries(r.byStatus)) byStatus[status] = (byStatus[status] ?? 0) + count;
  const median = (pick: (r: LoadResult) => number) => {
    const values = results.map(pick).filter((value) => !Number.isNaN(value)).sort((x, y) => x - y);
    return values[Math.floor(values.length / 2)] ?? NaN;
  };
  return {
    seconds,
    total: results.reduce((sum, r) => sum + r.total, 0),
    byStatus,
    okPerSecond: results.reduce((sum, r) => sum + r.okPerSecond * r.seconds, 0) / seconds,
    p50: median((r) => r.p50),
    p99: median((r) => r.p99),
    p99ByStatus: Object.fromEntries([...new Set(results.flatMap((r) => Object.keys(r.p99ByStatus)))].map((status) => [status, Math.max(...results.map((r) => r.p99ByStatus[status] ?? 0))])),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    serverCpuMs: results.reduce((sum, r) => sum + r.serverCpuMs, 0),
    eventLoopCpuMs: results.reduce((sum, r) => sum + r.eventLoopCpuMs, 0),
  };
};

/** Alternates two loads in short rounds so that noise from other processes hits both alike. */
export async function interleaved(first: () => Promise<LoadResult>, second: () => Promise<LoadResult>, rounds: number): Promise<[LoadResult, LoadResult]> {
  const a: LoadResult[] = [];
  const b: LoadResult[] = [];
  for (let i = 0; i < rounds; i += 1) {
    a.push(await first());
    b.push(await second());
  }
  return [combine(a), combine(b)];
}
