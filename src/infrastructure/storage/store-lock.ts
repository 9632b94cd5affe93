import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StartupError, dataDirFailure, ensureWritableDataDir } from '../config/startup-checks.js';

/**
 * Who may use the file store in DATA_DIR (LMDB's, which `npm run store:compact` replaces by its compacting copy): any number of processes that open it (service instances, workers, the admin
 * command), or one compaction (`npm run store:compact`), never both. An opener writes its pid (and start) under
 * `accounts.lmdb-openers/` (in the file's name), then looks for `accounts.lmdb-compacting`; a compaction publishes that file whole (written
 * aside, hard-linked into place), then looks for openers. Each writes before it looks, so of two that start together
 * at least one sees the other and refuses. A file whose process no longer runs (killed, crashed) is stale and ignored.
 */
const MARKER = 'accounts.lmdb-compacting';
const OPENERS = 'accounts.lmdb-openers';

/** `process.kill`'s signature, injectable for tests. */
export type Kill = (pid: number, signal: 0) => unknown;

/**
 * When this process started (performance.timeOrigin, in µs): a lock file names its writer by pid and start, so that one
 * naming our pid and another start is a past process's (a restarted container's pid 1). Read from the file's name or
 * text alone: no state of this module (or of a second copy of it) decides whose a file is.
 */
const STARTED = String(Math.round(performance.timeOrigin * 1000));

/**
 * Whether process `pid` runs: `kill(pid, 0)` succeeds, or fails with EPERM (it runs, under a user we may not signal).
 * Only ESRCH (no such process) and the like say it does not.
 */
export function running(pid: number, kill: Kill = process.kill.bind(process)): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The writer a lock file names (`<pid> <start>` in a marker, `<pid>-<start>-<random>` as an opener's name). */
const writerIn = (text: string): [pid: number, started: string | undefined] => {
  const [, pid, started] = /^(\d+)(?:[ -](\d+)(?=[ -]|$))?/.exec(text) ?? [];
  return [Number(pid), started];
};
const holds = ([pid, started]: [number, string | undefined], kill?: Kill): boolean => (pid === process.pid ? started === STARTED : running(pid, kill));
const token = (): string => `${process.pid}-${STARTED}-${randomBytes(4).toString('hex')}`;
const quietly = (file: string): void => {
  try {
    rmSync(file, { force: true });
  } catch {
    // a stale file another user owns: it stays, and stays ignored
  }
};

/** The pid of the compaction that holds the store in `dataDir`, if one runs. An unreadable marker counts as held. */
function compaction(dataDir: string, kill?: Kill): number | undefined {
  const marker = resolve(dataDir, MARKER);
  let writer: [number, string | undefined];
  try {
    writer = writerIn(readFileSync(marker, 'utf8').trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${marker} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): a compaction may be running`);
  }
  return holds(writer, kill) ? writer[0] : undefined;
}

/**
 * Registers this process as one that has the store in `dataDir` open; returns the function that unregisters it
 * (also run at exit). Throws, naming the process, while a compaction holds the store.
 */
export function openShared(dataDir: string, kill?: Kill): () => void {
  const dir = resolve(dataDir, OPENERS);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, token());
  writeFileSync(file, '', { flag: 'wx' });
  const release = () => {
    process.removeListener('exit', release);
    quietly(file);
  };
  process.once('exit', release);
  try {
    const compactor = compaction(dataDir, kill);
    if (compactor !== undefined) throw new Error(`the store is being compacted by process ${compactor} (npm run store:compact): start the service once it has finished`);
  } catch (error) {
    release();
    throw error;
  }
  return release;
}

/** Publishes the marker naming this process; false when another file is in place. */
function publish(marker: string): boolean {
  const aside = `${marker}.${token()}`;
  writeFileSync(aside, `${process.pid} ${STARTED}\n`, { flag: 'wx' });
  try {
    linkSync(aside, marker);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Takes the store in `dataDir` for a compaction; returns the function that gives it back. Throws, naming the
 * processes, while another compaction runs or any process has the store open; stale files are removed.
 */
export function takeExclusive(dataDir: string, kill?: Kill): () => void {
  const marker = resolve(dataDir, MARKER);
  if (!publish(marker)) {
    const other = compaction(dataDir, kill);
    if (other !== undefined) throw new Error(`a compaction by process ${other} is already running`);
    quietly(marker); // its process is gone (killed before it gave the store back): take the store over
    if (!publish(marker)) throw new Error(`another compaction started at the same time (${marker})`);
  }
  const release = () => quietly(marker);
  try {
    const openers = liveOpeners(resolve(dataDir, OPENERS), kill);
    if (openers.length > 0) throw new Error(`the store is open in process ${openers.join(', ')}: stop the service first`);
  } catch (error) {
    release();
    throw error;
  }
  return release;
}

/** The pids of the processes registered in `dir` that still run; the files of those that do not are removed. */
function liveOpeners(dir: string, kill?: Kill): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): which processes have the store open is unknown`);
  }
  const live = new Set<number>();
  for (const name of names) {
    const file = join(dir, name);
    const writer = writerIn(name);
    if (holds(writer, kill)) live.add(writer[0]);
    else quietly(file);
  }
  return [...live];
}

/**
 * Makes sure DATA_DIR is writable, registers this process as one that has its store open, and runs `open`; returns
 * what it opened and the function that unregisters (run it once that is closed). Throws a StartupError naming
 * DATA_DIR, on one line, while `npm run store:compact` runs; unregisters when `open` throws.
 */
export function asOpener<T>(dataDir: string, open: () => T): [T, () => void] {
  ensureWritableDataDir(dataDir);
  let unregister: () => void;
  try {
    unregister = openShared(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== undefined) throw dataDirFailure(dataDir, 'the store\'s openers cannot be registered', error);
    throw new StartupError('DATA_DIR', dataDir, (error as Error).message);
  }
  try {
    return [open(), unregister];
  } catch (error) {
    unregister();
    throw error;
  }
}
