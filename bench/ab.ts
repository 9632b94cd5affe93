import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type LoadResult, load, loopMicrosPerResponse, cpuMicrosPerResponse } from './load.js';
import { type Server, startServer } from './processes.js';
import { startEntry } from '../tests/support/child-service.js';

/**
 * Two builds of the service, measured in interleaved rounds on the same machine: what the notes in
 * bench/README.md call "A/B, interleaved rounds". Each side is a git revision (built into a temporary worktree
 * that shares this checkout's node_modules) or a compiled entry (`dist/start.cjs`).
 *
 *   npx tsx bench/ab.ts HEAD~1 HEAD                      GET /auth/me, 64 connections
 *   npx tsx bench/ab.ts --what refresh HEAD~1 HEAD       refresh, 64 clients each chaining its own session
 *   npx tsx bench/ab.ts --what sign-in --pin 0 A B       sign-in, 8 connections, the service pinned to CPU 0
 *   npx tsx bench/ab.ts --what invalid A B               the 400 path: `{}` to sign-in, 50 connections
 *   npx tsx bench/ab.ts --what refresh --node-a='--enable-source-maps' dist/start.cjs dist/start.cjs
 *                                                        one build, two sets of node options
 *   npx tsx bench/ab.ts --env-b='LOG_LEVEL=warn' dist/start.cjs dist/start.cjs
 *                                                        one build, two configurations
 *
 * Both sides run with the node options of this checkout's `npm start` (package.json), or those `--node-a` and
 * `--node-b` give instead (space-separated). Each round starts each side afresh on its own data directory, warms it for one second and loads it for
 * `--seconds`, with the benchmark's settings and any `--env-a`/`--env-b` gives that side (`KEY=VALUE`, space-separated); the sides alternate so that noise from the machine hits both alike. It prints every round and, per
 * side, the medians of answers per second, event-loop CPU per answer and process CPU per answer. On a machine
 * with few cores single rounds vary by a fifth: compare medians of five or more.
 */

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    what: { type: 'string', default: 'me' },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '4' },
    /** Pins each service (all its threads) to these CPUs (`taskset -a -c`), e.g. `0`: the load generator keeps the rest. */
    pin: { type: 'string' },
    /** Node options for side A or B instead of `npm start`'s, with `=` (its value starts with a dash), e.g. `--node-b='--enable-source-maps --max-semi-space-size=64'`. */
    'node-a': { type: 'string' },
    'node-b': { type: 'string' },
    /** Settings for side A or B on top of the benchmark's, e.g. `--env-b='LOG_LEVEL=warn WORKERS=2'`. */
    'env-a': { type: 'string' },
    'env-b': { type: 'string' },
  },
});

const WHAT = values.what;
if (WHAT !== 'me' && WHAT !== 'refresh' && WHAT !== 'sign-in' && WHAT !== 'invalid') throw new Error(`--what is me, refresh, sign-in or invalid, not ${WHAT}`);
if (positionals.length !== 2) throw new Error("usage: npx tsx bench/ab.ts [--what me|refresh|sign-in|invalid] [--rounds N] [--seconds S] [--pin CPUS] [--node-a='OPTIONS'] [--node-b='OPTIONS'] [--env-a='K=V ...'] [--env-b='K=V ...'] A B");
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const CHAINS = 64;
const USER = { name: 'Bench', lastname: 'Mark', email: 'bench@example.com', password: 'analytical engine 1843' };
const SIGN_IN = JSON.stringify({ email: USER.email, password: USER.password });
const ENV = { NODE_ENV: 'development', LOG_LEVEL: 'info', STORAGE: 'lmdb', RATE_LIMIT_MAX: '1000000', THROTTLE_MAX_FAILURES: '1000', SESSIONS_MAX_PER_ACCOUNT: '1000' };

const worktrees: string[] = [];

/** `--env-a`/`--env-b`: space-separated `KEY=VALUE` pairs. */
const settingsOf = (given: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (given ?? '').split(/\s+/).filter(Boolean).map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new Error(`--env-a and --env-b take KEY=VALUE pairs, not ${pair}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );

/** The compiled entry of one side: as given, or a revision built in a worktree of its own. */
const entryOf = (side: string): string => {
  if (side.endsWith('.cjs') || side.endsWith('.js')) return resolve(side);
  const dir = mkdtempSync(join(tmpdir(), 'ab-build-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, side], { stdio: 'ignore' });
  worktrees.push(dir);
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  const entry = join(dir, 'dist', 'start.cjs');
  if (!existsSync(entry)) throw new Error(`${side} built no dist/start.cjs`);
  return entry;
};

const post = async (server: Server, path: string, body: string): Promise<{ status: number; data: { accesstoken: string; refreshtoken: string } }> => {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, data: ((await res.json()) as { data: { accesstoken: string; refreshtoken: string } }).data };
};

/** One round of one side: a fresh service, one second of warm-up, then the measured load. */
async function round(entry: string, nodeArgs: readonly string[], settings: Record<string, string>): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ab-'));
  const server = await startServer(entry, { ...ENV, ...settings, DATA_DIR: join(dir, 'data') }, join(dir, 'log'), [...nodeArgs]);
  try {
    if (values.pin !== undefined) execFileSync('taskset', ['-a', '-cp', values.pin, String(server.child.pid)], { stdio: 'ignore' });
    if ((await post(server, '/auth/sign-up', JSON.stringify(USER))).status !== 201) throw new Error('sign-up failed');
    // One at a time: simultaneous sign-ins past the hashing queue would be shed (503) at the edge.
    const sessions: Awaited<ReturnType<typeof post>>[] = [];
    for (let i = 0; i < (WHAT === 'refresh' ? 2 * CHAINS : 1); i += 1) sessions.push(await post(server, '/auth/sign-in', SIGN_IN));
    if (sessions.some((session) => session.status !== 201)) throw new Error('sign-in failed');
    const chains = sessions.map((session) => session.data.refreshtoken);
    const warmChains = chains.splice(0, CHAINS);
    const run = (seconds: number, warm: boolean) => {
      const common = { url: server.url, seconds, server };
      if (WHAT === 'me') return load({ ...common, path: '/auth/me', method: 'GET', body: '', headers: { authorization: `Bearer ${sessions[0]?.data.accesstoken ?? ''}` }, connections: 64 }, 200);
      if (WHAT === 'refresh') return load({ ...common, path: '/auth/refresh', body: '', chains: warm ? warmChains : chains, connections: CHAINS }, 200);
      if (WHAT === 'invalid') return load({ ...common, path: '/auth/sign-in', body: '{}', connections: 50 }, 400);
      return load({ ...common, path: '/auth/sign-in', body: SIGN_IN, connections: 8 }, 201);
    };
    await run(1, true);
    return await run(SECONDS, false);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

try {
  /** Each side's node options: its `--node-a`/`--node-b`, else npm start's; named in the output where they differ. */
  const nodeOptions = [values['node-a'], values['node-b']].map((given) => (given === undefined ? startEntry().node : given.split(/\s+/).filter(Boolean)));
  const differ = nodeOptions[0]?.join(' ') !== nodeOptions[1]?.join(' ');
  const settings = [values['env-a'], values['env-b']];
  const sides = positionals.map((side, i) => {
    const nodeArgs = nodeOptions[i] ?? [];
    const given = settings[i];
    const name = `${side}${differ ? ` [${nodeArgs.join(' ')}]` : ''}${given === undefined ? '' : ` {${given}}`}`;
    return { side: name, entry: entryOf(side), nodeArgs, settings: settingsOf(given), results: [] as LoadResult[] };
  });
  for (let i = 0; i < ROUNDS; i += 1) {
    for (const side of sides) {
      const result = await round(side.entry, side.nodeArgs, side.settings);
      side.results.push(result);
      console.log(`round ${i + 1} ${side.side}: ${result.okPerSecond.toFixed(0)}/s, event loop ${loopMicrosPerResponse(result).toFixed(1)} µs, process ${cpuMicrosPerResponse(result).toFixed(1)} µs per answer ${JSON.stringify(result.byStatus)}`);
    }
  }
  console.log(`${WHAT}, medians of ${ROUNDS} interleaved rounds${values.pin === undefined ? '' : `, pinned to CPU ${values.pin}`}:`);
  for (const { side, results } of sides) {
    console.log(`  ${side}: ${median(results.map((r) => r.okPerSecond)).toFixed(0)}/s, event loop ${median(results.map(loopMicrosPerResponse)).toFixed(1)} µs, process ${median(results.map(cpuMicrosPerResponse)).toFixed(1)} µs per answer`);
  }
} finally {
  for (const dir of worktrees) execFileSync('git', ['worktree', 'remove', '--force', dir], { stdio: 'ignore' });
}
