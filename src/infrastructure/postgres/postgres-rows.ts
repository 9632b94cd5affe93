import { deserialize, serialize } from 'node:v8';
import type { RowReader, RowSink, RowSource, RowWriter } from '../storage/store-copy.js';
import { type AnyTable, type Stored, indexEntriesOf } from '../storage/store.js';
import { PostgresStore } from './postgres-store.js';

type Query = Parameters<Parameters<PostgresStore['transaction']>[0]>[0];

/**
 * The deadline of a copy's statements and of its one transaction (a copy is one transaction however long it takes;
 * a service's commit has seconds).
 */
const COPY_TIMEOUT_MS = 30 * 60_000;
/** How long a copy waits for the server to accept a connection: a server that does not answer is said at once, not after the copy's deadline. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Records read per statement. */
const PAGE = 1_000;

/** Parameters per INSERT statement, well under PostgreSQL's 65535. */
const MAX_PARAMETERS = 8_000;

/** A connection string with its password (if any) replaced by `***`: what a copy prints and reports. */
export function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  }
}

/** Runs `work` on one transaction of the store at `url`, opened for it (its schema created) and closed after it. */
async function inTransaction<T>(url: string, work: (query: Query) => Promise<T>): Promise<T> {
  const store = await PostgresStore.open({ url, timeoutMs: COPY_TIMEOUT_MS, connectTimeoutMs: CONNECT_TIMEOUT_MS, maxConnections: 1 });
  try {
    return await store.transaction(work);
  } finally {
    await store.close();
  }
}

/** Rows of `values`, numbered from $1, for an INSERT of `width` columns each: `($1, $2), ($3, $4)`. */
const placeholders = (count: number, width: number): string =>
  Array.from({ length: count }, (_, row) => `(${Array.from({ length: width }, (_, column) => `$${row * width + column + 1}`).join(', ')})`).join(', ');

/** Inserts `rows` (each `width` values) in as few statements as the parameter limit allows. */
async function insertAll(query: Query, into: string, width: number, rows: readonly (readonly unknown[])[]): Promise<void> {
  const perStatement = Math.floor(MAX_PARAMETERS / width);
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    await query(`INSERT INTO ${into} VALUES ${placeholders(chunk.length, width)}`, chunk.flat());
  }
}

/**
 * The PostgreSQL store at `url` as a copy's source: every record of `store_rows`, read in one read-only SERIALIZABLE
 * transaction, so that the copy is one consistent view of it even were a service still writing.
 */
export const postgresRowSource = (url: string): RowSource => ({
  where: maskedUrl(url),
  read: (read) =>
    inTransaction(url, async (query) => {
      await query('SET TRANSACTION READ ONLY');
      const reader: RowReader = {
        tableNames: async () => ((await query('SELECT DISTINCT tbl FROM store_rows ORDER BY tbl')).rows as { tbl: string }[]).map((row) => row.tbl),
        rowsOf: async function* (table: AnyTable) {
          let after: string | null = null;
          for (;;) {
            const { rows } = await query('SELECT key, version, value FROM store_rows WHERE tbl = $1 AND ($2::text IS NULL OR key > $2) ORDER BY key LIMIT $3', [table.name, after, PAGE]);
            for (const row of rows as { key: string; version: number; value: Buffer }[]) yield { key: row.key, version: row.version, value: deserialize(row.value) };
            if (rows.length < PAGE) return;
            after = (rows[rows.length - 1] as { key: string }).key;
          }
        },
      };
      return read(reader);
    }),
});

/**
 * The PostgreSQL store at `url` as a copy's target (its schema created as a service creates it): the whole copy is one
 * transaction, its records and their index entries inserted in batches (multi-row INSERTs), so a failure leaves the
 * target as it was. One transaction suits the sizes at stake (an account service's store: millions of rows at most).
 */
export const postgresRowSink = (url: string): RowSink => ({
  where: maskedUrl(url),
  fill: (write) =>
    inTransaction(url, async (query) => {
      const writer: RowWriter = {
        held: async () => ((await query('SELECT count(*)::integer AS n FROM store_rows')).rows as { n: number }[])[0]?.n ?? 0,
        write: async (table: AnyTable, rows: readonly Stored<unknown>[]) => {
          await insertAll(query, 'store_rows (tbl, key, version, value)', 4, rows.map((row) => [table.name, row.key, row.version, serialize(row.value)]));
          const entries = rows.flatMap((row) => indexEntriesOf(table, row.key, row.value).map(([index, entry]) => [table.name, index, entry, row.key]));
          await insertAll(query, 'store_entries (tbl, idx, entry, key)', 4, entries);
        },
      };
      return write(writer);
    }),
});
