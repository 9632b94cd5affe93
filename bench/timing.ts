import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

export interface SignInTimingOptions {
  /** An account that exists, and its password: the wrong-password attempts use this e-mail. */
  readonly knownEmail: string;
  /** Attempts of each kind, alternating (after `warmup` of each, not counted). */
  readonly samples?: number;
  readonly warmup?: number;
}

export interface SignInTiming {
  readonly unknownEmailMs: number[];
  readonly wrongPasswordMs: number[];
  readonly medianUnknownEmailMs: number;
  readonly medianWrongPasswordMs: number;
  /** median(unknown e-mail) / median(wrong password); 1 means indistinguishable. */
  readonly ratio: number;
  /** Every status seen; a fair comparison needs 401 only. */
  readonly statuses: number[];
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

async function timedSignIn(baseUrl: string, email: string, password: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(new URL('/auth/sign-in', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

/**
 * Compares sign-in latency for an unknown e-mail and for a wrong password, one request at a time, alternating so
 * that load on the host hits both alike. The service must not throttle (raise THROTTLE_MAX_FAILURES and RATE_LIMIT_MAX).
 */
export async function measureSignInTiming(baseUrl: string, options: SignInTimingOptions): Promise<SignInTiming> {
  const samples = options.samples ?? 15;
  const warmup = options.warmup ?? 2;
  const unknownEmailMs: number[] = [];
  const wrongPasswordMs: number[] = [];
  const statuses = new Set<number>();
  for (let i = 0; i < samples + warmup; i++) {
    const unknown = await timedSignIn(baseUrl, `timing-unknown-${i}-${Date.now()}@example.com`, 'not the password');
    const wrong = await timedSignIn(baseUrl, options.knownEmail, 'not the password');
    statuses.add(unknown.status).add(wrong.status);
    if (i < warmup) continue;
    unknownEmailMs.push(unknown.ms);
    wrongPasswordMs.push(wrong.ms);
  }
  const medianUnknownEmailMs = median(unknownEmailMs);
  const medianWrongPasswordMs = median(wrongPasswordMs);
  return { unknownEmailMs, wrongPasswordMs, medianUnknownEmailMs, medianWrongPasswordMs, ratio: medianUnknownEmailMs / medianWrongPasswordMs, statuses: [...statuses] };
}

async function runStandalone(): Promise<void> {
  const { startService } = await import('../src/main.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'timing-bench-'));
  const service = await startService({ ...process.env, STORAGE: 'memory', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', THROTTLE_MAX_FAILURES: '1000', RATE_LIMIT_MAX: '100000' });
  try {
    const knownEmail = 'timing@example.com';
    await fetch(new URL('/auth/sign-up', service.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Tim', lastname: 'Ing', email: knownEmail, password: 'analytical engine 1843' }),
    });
    const timing = await measureSignInTiming(service.url, { knownEmail, samples: Number(process.env['SAMPLES'] ?? 31) });
    process.stdout.write(`${JSON.stringify({ medianUnknownEmailMs: timing.medianUnknownEmailMs, medianWrongPasswordMs: timing.medianWrongPasswordMs, ratio: timing.ratio, statuses: timing.statuses })}\n`);
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void runStandalone();
}
