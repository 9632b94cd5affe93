import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Server {
  readonly url: string;
  readonly child: ChildProcess;
  /** Resident set size now, and its peak since the process started (Linux /proc), in MiB. */
  memory(): { rssMiB: number; peakRssMiB: number };
  stop(): Promise<void>;
}

const LISTENING = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/;

const kib = (status: string, field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);

/** Starts a TypeScript entry point in its own process (its own event loop and CPU time), logging to a file. */
export async function startServer(entry: string, env: Record<string, string>, logFile: string): Promise<Server> {
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const deadline = Date.now() + 30_000;
  let url: string | undefined;
  while (!url) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${entry} did not start:\n${readFileSync(logFile, 'utf8')}`);
    url = LISTENING.exec(readFileSync(logFile, 'utf8'))?.[1];
    if (!url) await sleep(100);
  }
  return {
    url,
    child,
    memory: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return { rssMiB: kib(status, 'VmRSS') / 1024, peakRssMiB: kib(status, 'VmHWM') / 1024 };
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
