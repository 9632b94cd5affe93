import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

export interface BurstResult {
  /** How many answers of each status. */
  readonly statuses: Record<number, number>;
  readonly acceptedP50Ms: number;
  readonly acceptedP99Ms: number;
  readonly shedP50Ms: number;
  readonly shedP99Ms: number;
  readonly elapsedMs: number;
}

const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

/**
 * Sends `requests` sign-ins at once (half with the right password of `email`, half for unknown e-mails) and reports
 * the status counts and the latency of accepted (201/401) and shed (503) answers. Anything else is a failure to show.
 */
export async function measureBurst(baseUrl: string, options: { email: string; password: string; requests?: number }): Promise<BurstResult> {
  const requests = options.requests ?? 500;
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: requests }, async (_, i) => {
      const body = i % 2 === 0 ? { email: options.email, password: options.password } : { email: `burst-${i}@example.com`, password: 'not the password' };
      const sent = performance.now();
      try {
        const res = await fetch(new URL('/auth/sign-in', baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        await res.arrayBuffer();
        return { status: res.status, ms: performance.now() - sent };
      } catch {
        return { status: 0, ms: performance.now() - sent };
      }
    }),
  );
  const statuses: Record<number, number> = {};
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
  const accepted = answers.filter((a) => a.status === 201 || a.status === 401).map((a) => a.ms);
  const shed = answers.filter((a) => a.status === 503).map((a) => a.ms);
  return {
    statuses,
    acceptedP50Ms: percentile(accepted, 50),
    acceptedP99Ms: percentile(accepted, 99),
    shedP50Ms: percentile(shed, 50),
    shedP99Ms: percentile(shed, 99),
    elapsedMs: performance.now() - started,
  };
}

async function runStandalone(): Promise<void> {
  const { startService } = await import('../src/main.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'burst-bench-'));
  const service = await startService({ STORAGE: 'memory', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', THROTTLE_MAX_FAILURES: '1000', RATE_LIMIT_MAX: '100000', ...process.env });
  try {
    const email = 'burst@example.com';
    const password = 'analytical engine 1843';
    await fetch(new URL('/auth/sign-up', service.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'B', lastname: 'Urst', email, password }) });
    const rssBefore = process.memoryUsage().rss;
    const rounds = [];
    for (let round = 0; round < Number(process.env['ROUNDS'] ?? 3); round++) {
      rounds.push(await measureBurst(service.url, { email, password, requests: Number(process.env['REQUESTS'] ?? 500) }));
    }
    const rssGrowthMiB = Math.round((process.memoryUsage().rss - rssBefore) / 2 ** 20);
    process.stdout.write(`${JSON.stringify({ rounds, rssGrowthMiB }, null, 2)}\n`);
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void runStandalone();
}
