import autocannon from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly path: string;
  readonly body: string;
  readonly connections: number;
  readonly seconds: number;
  /** Replace `[<id>]` in the body with a fresh id per request (unique e-mails for sign-up). */
  readonly uniqueIds?: boolean;
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
  readonly errors: number;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Drives POST `path` with autocannon and keeps the latency of every response with the wanted status. */
export async function load(options: LoadOptions, wantedStatus: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const instance = autocannon({
    url: options.url + options.path,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: options.body,
    idReplacement: options.uniqueIds ?? false,
    connections: options.connections,
    duration: options.seconds,
    timeout: 30,
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode === wantedStatus) latencies.push(responseTime);
  });
  const result = await new Promise<any>((resolve, reject) => {
    instance.on('done', resolve);
    instance.on('error', reject);
  });
  const byStatus = Object.fromEntries(Object.entries(result.statusCodeStats as Record<string, { count: number }>).map(([status, stat]) => [status, Number(stat.count)]));
  const sorted = latencies.sort((a, b) => a - b);
  return {
    seconds: result.duration,
    total: Object.values(byStatus).reduce((sum, count) => sum + count, 0),
    byStatus,
    okPerSecond: (byStatus[String(wantedStatus)] ?? 0) / result.duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    errors: result.errors,
  };
}
