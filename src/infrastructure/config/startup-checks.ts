import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** A start-up failure of one setting: its message names the variable, its value and the reason, on one line. */
export class StartupError extends Error {
  constructor(variable: string, value: string, reason: string) {
    super(`${variable}=${value}: ${reason.replace(/\s+/g, ' ').trim()}`);
    this.name = 'StartupError';
  }
}

const REASONS: Record<string, string> = {
  EROFS: 'is on a read-only filesystem',
  EACCES: 'is not writable by this process (permission denied)',
  EPERM: 'is not writable by this process (operation not permitted)',
  ENOTDIR: 'is not a directory (or a parent of it is a file)',
  EEXIST: 'exists and is not a directory',
  ENOSPC: 'has no space left on its filesystem',
  ENOENT: 'does not exist and cannot be created',
};

const reasonOf = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  const known = code === undefined ? undefined : REASONS[code];
  return known ? `${known} (${code})` : `cannot be used (${error instanceof Error ? error.message : String(error)})`;
};

/**
 * Creates `dir` and its missing parents, one at a time. Not `mkdirSync(dir, { recursive: true })`: where a directory
 * refuses a new entry with ENOENT although it exists (/proc, /sys), Node's recursive mkdir retries forever.
 */
export function makeDirectory(dir: string): void {
  const parent = dirname(resolve(dir));
  try {
    mkdirSync(dir);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(dir).isDirectory()) return;
    if (code !== 'ENOENT' || parent === resolve(dir) || existsSync(parent)) throw error;
  }
  makeDirectory(parent);
  makeDirectory(dir);
}

/**
 * Makes sure DATA_DIR is a writable directory, creating it when missing, by writing and removing a small probe
 * file. Throws StartupError naming DATA_DIR otherwise.
 */
export function ensureWritableDataDir(dataDir: string): void {
  try {
    makeDirectory(dataDir);
    if (!statSync(dataDir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    const probe = join(dataDir, `.write-probe-${process.pid}`);
    const fd = openSync(probe, 'w', 0o600);
    try {
      writeSync(fd, 'probe');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
      rmSync(probe, { force: true });
    }
  } catch (error) {
    throw new StartupError('DATA_DIR', dataDir, reasonOf(error));
  }
}

/** Translates a failure to open something under DATA_DIR (the LMDB environment, the key) into a StartupError. */
export const dataDirFailure = (dataDir: string, what: string, error: unknown): StartupError =>
  new StartupError('DATA_DIR', dataDir, `${what}: ${reasonOf(error)}`);

const HOST_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'EAI_NONAME', 'EAI_FAIL']);

/** Translates a failure to listen into a StartupError naming HOST or PORT; other errors are returned unchanged. */
export function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (HOST_CODES.has(code)) return new StartupError('HOST', host, `cannot listen on this address (${code}: not a local interface or not resolvable)`);
  if (code === 'EADDRINUSE') return new StartupError('PORT', String(port), `is already in use on ${host} (EADDRINUSE)`);
  if (code === 'EACCES') return new StartupError('PORT', String(port), `may not be bound by this process on ${host} (EACCES)`);
  return error;
}
