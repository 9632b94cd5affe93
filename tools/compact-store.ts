/**
 * `npm run store:compact`: LMDB's compacting copy of the embedded store (mdb_env_copy2 with MDB_CP_COMPACT), put in
 * place of DATA_DIR/accounts.lmdb. The copy holds only the pages in use, so what a removal or an erase freed (pages
 * LMDB would otherwise reuse only as it needs them) leaves the disk: the store's reclamation step after a deletion
 * (docs/account.md, "Erasure"). It holds the store exclusively for its whole run (storage/store-lock.ts): it refuses
 * while any process has the store open, and no service starts until it has finished. The copy keeps the store file's
 * owner and mode.
 */
import { type Stats, chmodSync, chownSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { open } from 'lmdb';
import { fsyncPath } from '../src/infrastructure/lmdb/lmdb-rows.js';
import { LmdbStore } from '../src/infrastructure/lmdb/lmdb-store.js';
import { type Kill, running, takeExclusive } from '../src/infrastructure/storage/store-lock.js';

export interface CompactOptions {
  /** `process.kill`, for tests. */
  readonly kill?: Kill;
  /** Runs with the copy made, just before it replaces the store: for tests. */
  readonly beforeRename?: () => Promise<void>;
}

/** The process ids lmdb-js lists as readers of the environment (a service older than the lock), but this process. */
const otherReaders = (list: string, kill?: Kill): number[] =>
  [...list.matchAll(/^\s*(\d+)\s/gm)].map((match) => Number(match[1])).filter((pid) => pid !== process.pid && running(pid, kill));

/** Gives `copy` the owner and mode of `original`; throws, naming what is missing, when this process may not. */
function keepOwnerAndMode(copy: string, original: Stats): void {
  const made = statSync(copy);
  try {
    if (made.uid !== original.uid || made.gid !== original.gid) chownSync(copy, original.uid, original.gid);
    chmodSync(copy, original.mode & 0o7777);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(`cannot give the copy the store's owner ${original.uid}:${original.gid} and mode ${(original.mode & 0o7777).toString(8)} (${code}): run it as that user or as root; the store is unchanged`);
  }
}

/** Replaces the store in `dataDir` by its compacting copy; returns its size before and after, in bytes. */
export async function compactStore(dataDir: string, options: CompactOptions = {}): Promise<{ readonly before: number; readonly after: number }> {
  const path = resolve(dataDir, 'accounts.lmdb');
  const copy = `${path}.compacting`;
  const release = takeExclusive(dataDir, options.kill);
  try {
    rmSync(copy, { force: true });
    const original = statSync(path);
    const env = open({ path, maxDbs: LmdbStore.MAX_DATABASES });
    try {
      const readers = otherReaders(env.readerList(), options.kill);
      if (readers.length > 0) throw new Error(`the store is open in process ${readers.join(', ')}: stop the service first`);
      await env.backup(copy, true);
    } finally {
      await env.close();
    }
    try {
      keepOwnerAndMode(copy, original);
      fsyncPath(copy);
      await options.beforeRename?.();
    } catch (error) {
      rmSync(copy, { force: true });
      throw error;
    }
    renameSync(copy, path);
    rmSync(`${path}-lock`, { force: true });
    fsyncPath(resolve(dataDir));
    return { before: original.size, after: statSync(path).size };
  } finally {
    release();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(resolve(process.argv[1]))).href) {
  const dataDir = process.env['DATA_DIR'] ?? './data';
  compactStore(dataDir).then(
    ({ before, after }) => console.log(`compacted ${join(dataDir, 'accounts.lmdb')}: ${before} bytes before, ${after} after`),
    (error: unknown) => {
      console.error(`store:compact: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
