import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Server {
  readonly url: string;
  readonly child: ChildProcess;
  /** Resident set size now, and its peak since the process started (Linux /proc), in MiB; a primary's workers added. */
  memory(): { rssMiB: number; peakRssMiB: number };
  /** CPU time (user + system) the process (and its workers, if any) has used so far, in ms. */
  cpuMs(): number;
  /** CPU time (user + system) of the process's main thread, its event loop, so far, in ms; with workers, their loops added. */
  eventLoopCpuMs(): number;
  stop(): Promise<void>;
}

const CLOCK_TICKS_PER_SECOND = 100;

const freePort = async (): Promise<number> => {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

const answers = (url: string): Promise<boolean> =>
  fetch(url, { method: 'GET' }).then(
    () => true,
    () => false,
  );

const cpuMsOf = (statFile: string): number => {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS_PER_SECOND);
};

/** The process and its children (the workers of a primary, WORKERS), by pid (Linux /proc). */
const processTree = (pid: number | undefined): number[] => {
  if (pid === undefined) return [];
  try {
    return [pid, ...readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)];
  } catch {
    return [pid];
  }
};

/** A /proc reading summed over the process tree; a process gone meanwhile counts 0. */
const summed = (pid: number | undefined, read: (pid: number) => number): number =>
  processTree(pid).reduce((sum, each) => {
    try {
      return sum + read(each);
    } catch {
      return sum;
    }
  }, 0);

const kib = (status: string, field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);

/**
 * Starts an entry point (compiled JavaScript, or TypeScript through tsx) in its own process (its own event loop and CPU time) on a free port,
 * logging to a file, and resolves once it answers HTTP. A PORT in `env` is kept (a service whose PUBLIC_API_URL names it).
 */
export async function startServer(entry: string, env: Record<string, string>, logFile: string, nodeArgs: string[] = []): Promise<Server> {
  const port = Number(env['PORT'] ?? 0) || (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const fd = openSync(logFile, 'w');
  const args = [...nodeArgs, ...(entry.endsWith('.ts') ? ['--import', 'tsx', entry] : ['--enable-source-maps', entry])];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const deadline = Date.now() + 30_000;
  while (!(await answers(`${url}/health/live`))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${entry} did not start:\n${readFileSync(logFile, 'utf8')}`);
    await sleep(100);
  }
  return {
    url,
    child,
    memory: () => {
      const status = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');
      return { rssMiB: summed(child.pid, (pid) => kib(status(pid), 'VmRSS')) / 1024, peakRssMiB: summed(child.pid, (pid) => kib(status(pid), 'VmHWM')) / 1024 };
    },
    cpuMs: () => summed(child.pid, (pid) => cpuMsOf(`/proc/${pid}/stat`)),
    eventLoopCpuMs: () => summed(child.pid, (pid) => cpuMsOf(`/proc/${pid}/task/${pid}/stat`)),
    stop: async () => {
      // Gone already: exited, or ended by a signal (a bare server has no SIGTERM handler), so no 'exit' will come.
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
