import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { open } from 'lmdb';
import { takeExclusive } from '../storage/store-lock.js';
import type { RowReader, RowSink, RowSource, RowWriter } from '../storage/store-copy.js';
import type { AnyTable, Stored } from '../storage/store.js';
import { migrateToTables } from './lmdb-migrations.js';
import { LmdbStore } from './lmdb-store.js';
import { LmdbTables } from './lmdb-tables.js';

const STORE_FILE = 'accounts.lmdb';

/** The names of the tables with a database of records in the environment (`t:<name>`, LmdbTables). */
const tableNamesIn = (store: LmdbStore): string[] =>
  [...store.root.getKeys()].flatMap((key) => (typeof key === 'string' && key.startsWith('t:') ? [key.slice(2)] : []));

/** How many records the environment holds, in every table's database. */
const recordsIn = (store: LmdbStore): number =>
  tableNamesIn(store).reduce((sum, name) => sum + store.root.openDB({ name: `t:${name}` }).getKeysCount(), 0);

/** Flushes a file (or a directory's entries) to the disk. */
export const fsyncPath = (path: string): void => {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * Runs `work` with the store in `dataDir` held exclusively, as `npm run store:compact` holds it (store-lock.ts): refused,
 * naming the process, while a service has it open; no service starts until it is given back.
 */
async function holding<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  let release: () => void;
  try {
    release = takeExclusive(dataDir);
  } catch (error) {
    throw new Error(`lmdb:${dataDir}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return await work();
  } finally {
    release();
  }
}

/** The embedded store in `dataDir` (DATA_DIR/accounts.lmdb) as a copy's source, brought to the current layout first (as a start would). */
export const lmdbRowSource = (dataDir: string): RowSource => ({
  where: `lmdb:${dataDir}`,
  read: (read) =>
    existsSync(join(dataDir, STORE_FILE)) ? holding(dataDir, async () => {
      const store = LmdbStore.open(dataDir);
      try {
        const tables = new LmdbTables(store);
        await migrateToTables(store, tables);
        const reader: RowReader = {
          tableNames: () => Promise.resolve(tableNamesIn(store)),
          rowsOf: async function* (table) {
            tables.prepare([table]);
            yield* tables.recordsOf(table);
          },
        };
        return await read(reader);
      } finally {
        await store.close();
      }
    }) : Promise.reject(new Error(`no store in ${dataDir} (${STORE_FILE} is missing)`)),
});

/**
 * The embedded store in `dataDir` as a copy's target. The copy is written into a new environment beside it
 * (`accounts.lmdb.copying`), in one write transaction per batch, and put in place of DATA_DIR/accounts.lmdb (which
 * holds no record, or the copy is refused) only once complete and flushed: all or nothing.
 */
export const lmdbRowSink = (dataDir: string): RowSink => ({
  where: `lmdb:${dataDir}`,
  fill: (write) => {
    mkdirSync(dataDir, { recursive: true });
    return holding(dataDir, async () => {
      const path = resolve(dataDir, STORE_FILE);
      const aside = `${path}.copying`;
      const removeAside = () => [aside, `${aside}-lock`].forEach((file) => rmSync(file, { force: true }));
      removeAside();
      const target = existsSync(path) ? LmdbStore.open(dataDir) : undefined;
      const copy = new LmdbStore(open({ path: aside, maxDbs: LmdbStore.MAX_DATABASES, overlappingSync: false }), dataDir);
      let closed = false;
      try {
        const tables = new LmdbTables(copy);
        await migrateToTables(copy, tables);
        const writer: RowWriter = {
          held: () => Promise.resolve(target ? recordsIn(target) : 0),
          write: async (table: AnyTable, rows: readonly Stored<unknown>[]) => {
            tables.prepare([table]);
            await copy.transaction(() => {
              for (const row of rows) tables.importInTransaction(table, row.key, row.value as never, row.version);
            });
          },
        };
        const result = await write(writer);
        await target?.close();
        await copy.close();
        closed = true;
        fsyncPath(aside);
        renameSync(aside, path);
        rmSync(`${aside}-lock`, { force: true });
        rmSync(`${path}-lock`, { force: true });
        fsyncPath(resolve(dataDir));
        return result;
      } catch (error) {
        if (!closed) await Promise.all([target?.close(), copy.close()]);
        removeAside();
        throw error;
      }
    });
  },
});
