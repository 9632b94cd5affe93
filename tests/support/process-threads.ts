import { readFileSync, readdirSync } from 'node:fs';

/** CPU time (user + system, in clock ticks of 10 ms) of each thread of a process, by thread id (Linux /proc). */
export function threadCpuTicks(pid: number): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      continue;
    }
  }
  return ticks;
}

/** Threads other than the main one (the event loop) that used CPU between two `threadCpuTicks` readings. */
export const busyWorkerThreads = (pid: number, before: Map<number, number>, after: Map<number, number>): number =>
  [...after].filter(([tid, ticks]) => tid !== pid && ticks - (before.get(tid) ?? 0) > 0).length;

/** The nice value of each thread of a process, by thread id (Linux /proc). */
export function threadNiceness(pid: number): Map<number, number> {
  return new Map(readdirSync(`/proc/${pid}/task`).map((tid) => [Number(tid), Number(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16])]));
}
