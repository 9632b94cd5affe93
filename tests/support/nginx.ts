import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** nginx on PATH, or where Debian puts it (/usr/sbin, off the PATH of a user who is not root). */
const NGINX = spawnSync('nginx', ['-v']).status === 0 ? 'nginx' : '/usr/sbin/nginx';

/** Why no real nginx can be had here, or null: Debian's `nginx` is needed (.ci/run installs it when missing). */
export const nginxUnavailable = (): string | null =>
  spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).status === 0 ? null : 'no nginx on PATH or in /usr/sbin (apt-get install -y nginx; .ci/run installs it)';

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * A configuration file as written for Compose, made to run here: each upstream `server NAME:PORT` pointed at the
 * address given for NAME, `listen` on a free local port, and the process's own files (pid, error log, temporary
 * bodies) in `dir`. Nothing else of the file changes.
 */
export function localised(conf: string, upstreams: Readonly<Record<string, string>>, port: number, dir: string): string {
  let text = conf.replace(/^(\s*server\s+)([a-z0-9-]+):\d+/gm, (whole, lead: string, name: string) => {
    const address = upstreams[name];
    if (address === undefined) throw new Error(`nginx.conf names an upstream ${name} that the test does not run`);
    return `${lead}${address}`;
  });
  text = text.replace(/^(\s*)listen\s+80;/m, `$1listen 127.0.0.1:${port};`);
  const own = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`).join('\n');
  text = text.replace(/^http\s*\{/m, `http {\n  access_log off;\n${own}`);
  return `pid ${join(dir, 'nginx.pid')};\nerror_log ${join(dir, 'error.log')} warn;\n${text}`;
}

export interface RunningNginx {
  readonly url: string;
  stop(): Promise<void>;
}

/** Checks `conf` with `nginx -t`: null when nginx accepts it, else what nginx said. */
export function nginxRejects(confFile: string, dir: string): string | null {
  const check = spawnSync(NGINX, ['-t', '-p', dir, '-c', confFile], { encoding: 'utf8' });
  return check.status === 0 ? null : `${check.stdout}${check.stderr}`;
}

/** Runs nginx in the foreground on `confFile` (made by `localised`), resolving once it accepts connections. */
export async function startNginx(confFile: string, dir: string, port: number): Promise<RunningNginx> {
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', confFile, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let i = 0; !(await accepts(port)); i++) {
    if (child.exitCode !== null || i > 100) throw new Error(`nginx did not start: ${stderr}${readLog(dir)}`);
    await sleep(50);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGQUIT');
      await exited;
    },
  };
}

const readLog = (dir: string): string => {
  try {
    return readFileSync(join(dir, 'error.log'), 'utf8');
  } catch {
    return '';
  }
};

/** The port nginx is to listen on, and the localised configuration written into `dir`. */
export async function nginxConfIn(dir: string, conf: string, upstreams: Readonly<Record<string, string>>): Promise<{ file: string; port: number }> {
  const port = await freePort();
  // Run as root, nginx's workers are `nobody`: they must reach the temporary files it keeps in `dir` (a large body).
  chmodSync(dir, 0o755);
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, localised(conf, upstreams, port, dir));
  return { file, port };
}
