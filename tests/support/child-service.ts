import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FAST_ARGON2 } from './test-service.js';

export interface ChildService {
  readonly url: string;
  readonly process: ChildProcess;
  readonly output: () => string;
}

const ROOT = join(import.meta.dirname, '..', '..');

/** The compiled entry `npm start` runs (`dist/start.cjs`), read from package.json so that the tests follow it. */
export const startEntry = (): { node: string[]; entry: string } => {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/);
  const entry = start.find((word) => word.startsWith('dist/'));
  if (start[0] !== 'node' || !entry) throw new Error(`npm start does not run node dist/...: ${start.join(' ')}`);
  return { node: start.slice(1, start.indexOf(entry)), entry: entry.slice('dist/'.length) };
};

let built: Promise<string> | undefined;

/** Compiles src/ once per test run (as `npm start`'s prestart does, without the type check) into its own folder. */
const build = (): Promise<string> =>
  (built ??= (async () => {
    const outDir = join(ROOT, '.tmp', `test-dist-${process.pid}`);
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', outDir, '--noCheck']);
    return outDir;
  })());

/** Compiles the service now (once per run), so that a test can time a start without the compilation. */
export const compileService = (): Promise<string> => build();

/**
 * Runs the service as its own process, through the same entry point `npm start` runs (compiled), and resolves once
 * it listens. STORAGE is lmdb unless `env` says otherwise; UV_THREADPOOL_SIZE is not inherited. The first call compiles the service (seconds).
 */
export async function spawnService(env: Record<string, string>): Promise<ChildService> {
  const outDir = await build();
  const { node, entry } = startEntry();
  const { UV_THREADPOOL_SIZE: _inherited, ...inherited } = process.env;
  const child = spawn(process.execPath, [...node, join(outDir, entry)], {
    env: { ...inherited, NODE_ENV: 'test', STORAGE: 'lmdb', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...FAST_ARGON2, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${output}`)));
  });
  return { url, process: child, output: () => output };
}

export async function killHard(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
