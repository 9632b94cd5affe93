import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { FAST_ARGON2 } from './test-service.js';

export interface ChildService {
  readonly url: string;
  readonly process: ChildProcess;
  readonly output: () => string;
}

/** Runs the service as its own process (as `npm start` would) and resolves once it listens. STORAGE is lmdb unless `env` says otherwise. */
export async function spawnService(env: Record<string, string>): Promise<ChildService> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, NODE_ENV: 'test', STORAGE: 'lmdb', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...FAST_ARGON2, ...env },
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
