/**
 * The files of ours one request runs through: V8's precise coverage (call counts) taken around one warm request to
 * the service started in this process, every `src/` file with a function that ran listed in order.
 *
 *   npx tsx tools/request-path.ts             GET /auth/me and POST /auth/refresh, each after a warm-up
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService } from '../src/main.js';

interface ScriptCoverage {
  readonly url: string;
  readonly functions: readonly { readonly ranges: readonly { readonly count: number }[] }[];
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const session = new Session();
session.connect();
await session.post('Profiler.enable');

/** The `src/` files with code that ran since the previous call (precise coverage resets its counts on each take). */
async function filesRun(): Promise<string[]> {
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as { result: ScriptCoverage[] };
  return result
    .filter((script) => script.url.startsWith('file://') && script.functions.some((fn) => fn.ranges.some((range) => range.count > 0)))
    .map((script) => fileURLToPath(script.url).slice(ROOT.length))
    .filter((file) => file.startsWith('src/'))
    .sort();
}

const dataDir = mkdtempSync(join(tmpdir(), 'request-path-'));
const service = await startService({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', ARGON2_PARALLELISM: '1' });
try {
  const post = (path: string, body: unknown) => fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const signedUp = (await (await post('/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'analytical engine 1843' })).json()) as {
    data: { accesstoken: string; refreshtoken: string };
  };
  const me = () => fetch(`${service.url}/auth/me`, { headers: { authorization: `Bearer ${signedUp.data.accesstoken}` } });
  let refreshToken = signedUp.data.refreshtoken;
  const refresh = async () => {
    const answer = (await (await post('/auth/refresh', { refreshtoken: refreshToken })).json()) as { data: { refreshtoken: string } };
    refreshToken = answer.data.refreshtoken;
  };
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  for (const [name, request] of [['GET /auth/me', me], ['POST /auth/refresh', refresh]] as const) {
    await request();
    await request();
    await filesRun();
    await request();
    const files = await filesRun();
    console.log(`${name}: ${files.length} files of src/\n${files.map((file) => `  ${file}`).join('\n')}`);
  }
} finally {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
  session.disconnect();
}
