/**
 * `npm run store:compact`: LMDB's compacting copy of the embedded store (mdb_env_copy2 with MDB_CP_COMPACT), put in
 * place of DATA_DIR/accounts.lmdb. The copy holds only the pages in use, so what a removal or an erase freed (pages
 * LMDB would otherwise reuse only as it needs them) leaves the disk: the store's reclamation step after a deletion
 * (docs/account.md, "Erasure"). Run it with the service stopped: it refuses while another process has the store open.
 */
import { realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { open } from 'lmdb';
import { LmdbStore } from '../src/infrastructure/lmdb/lmdb-store.js';

/** The process ids lmdb-js lists as readers of the environment (its reader table), but this process's own. */
const otherReaders = (list: string): number[] =>
  [...list.matchAll(/^\s*(\d+)\s/gm)].map((match) => Number(match[1])).filter((pid) => pid !== process.pid && alive(pid));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Replaces the store in `dataDir` by its compacting copy; returns its size before and after, in bytes. */
export async function compactStore(dataDir: string): Promise<{ readonly before: number; readonly after: number }> {
  const path = join(dataDir, 'accounts.lmdb');
  const copy = `${path}.compacting`;
  rmSync(copy, { force: true });
  const before = statSync(path).size;
  const env = open({ path, maxDbs: LmdbStore.MAX_DATABASES });
  try {
    const readers = otherReaders(env.readerList());
    if (readers.length > 0) throw new Error(`the store is open in process ${readers.join(', ')}: stop the service first`);
    await env.backup(copy, true);
  } finally {
    await env.close();
  }
  renameSync(copy, path);
  rmSync(`${path}-lock`, { force: true });
  return { before, after: statSync(path).size };
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
