import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Why no real Redis can be had here, or null: Debian's `redis-server` is needed (.ci/run installs it when missing). */
export const redisUnavailable = (): string | null =>
  spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0 ? null : 'no redis-server on PATH (apt-get install -y redis-server; .ci/run installs it)';

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A real redis-server on a free local port, nothing saved to disk; `stop` and `start` again on the same port; `args` added (`--requirepass x`). */
export async function startRedis(port?: number, args: readonly string[] = []): Promise<{ readonly url: string; readonly port: number; stop(): Promise<void> }> {
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn('redis-server', ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    if (/^(PONG|NOAUTH)/.test(spawnSync('redis-cli', ['-p', String(chosen), 'ping'], { encoding: 'utf8' }).stdout.trim())) break;
    await sleep(50);
  }
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
