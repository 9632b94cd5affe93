import { deserialize, serialize } from 'node:v8';
import { type Ref, type Write, decideAwaiting, refKey, refsOf } from '../storage/commit-plan.js';
import { type AnyTable, type Changes, type CommitOutcome, KEY_END, type KeyPart, type RangeQuery, type Store, type Stored, type Table, endOf, indexEntriesOf, indexNamesOf, prefixOf } from '../storage/store.js';
import type { PostgresStore } from './postgres-store.js';

interface RowResult {
  key: string;
  version: number;
  value: Buffer;
}

type Query = Parameters<Parameters<PostgresStore['transaction']>[0]>[0];

const stored = <R>(row: RowResult): Stored<R> => ({ key: row.key, value: deserialize(row.value) as R, version: row.version });

const indexOf = (table: AnyTable, index: string): string => {
  if (!indexNamesOf(table).includes(index)) throw new Error(`table ${table.name} has no index ${index}`);
  return index;
};

const COUNT_RANGE = 'SELECT count(*)::integer AS n FROM store_entries WHERE tbl = $1 AND idx = $2 AND entry >= $3 AND entry < $4';

/**
 * The storage primitive in PostgreSQL (store_rows, store_entries: postgres-store.ts says why one generic table). A
 * commit is one SERIALIZABLE transaction: it reads the records it touches, decides (commit-plan.ts, the same for every
 * store), writes the records and their index entries; PostgreSQL's predicate locks make a commit that read a record
 * or counted a range conflict with one that changed it (run again, then decided on what is there), so version checks,
 * claims, counters and bounded ranges are exact under concurrency. Expiry is the `expires` index and the sweep, as
 * for LMDB.
 */
export class PostgresTables implements Store {
  constructor(private readonly store: PostgresStore) {}

  async get<R>(table: Table<R>, key: string): Promise<Stored<R> | null> {
    const { rows } = await this.store.query<RowResult>('SELECT key, version, value FROM store_rows WHERE tbl = $1 AND key = $2', [table.name, key]);
    return rows[0] ? stored<R>(rows[0]) : null;
  }

  async range<R>(table: Table<R>, index: string, query: RangeQuery): Promise<Stored<R>[]> {
    const prefix = prefixOf(query);
    const end = endOf(query);
    const [low, lowOp, high] = query.reverse
      ? [prefix, '>=', query.after ?? end]
      : query.after === undefined ? [prefix, '>=', end] : [query.after, '>', end];
    const { rows } = await this.store.query<RowResult>(
      `SELECT r.key, r.version, r.value FROM store_entries e JOIN store_rows r ON r.tbl = e.tbl AND r.key = e.key
       WHERE e.tbl = $1 AND e.idx = $2 AND e.entry ${lowOp} $3 AND e.entry < $4
       ORDER BY e.entry ${query.reverse ? 'DESC' : 'ASC'} LIMIT $5`,
      [table.name, indexOf(table, index), low, high, query.limit],
    );
    return rows.map((row) => stored<R>(row));
  }

  async count(table: AnyTable, index: string, prefix: readonly KeyPart[]): Promise<number> {
    const start = prefixOf({ prefix });
    const { rows } = await this.store.query<{ n: number }>(COUNT_RANGE, [table.name, indexOf(table, index), start, `${start}${KEY_END}`]);
    return rows[0]?.n ?? 0;
  }

  commit(changes: Changes): Promise<CommitOutcome> {
    const refs = refsOf(changes);
    return this.store.transaction(async (query): Promise<CommitOutcome> => {
      const read = async (ref: Ref): Promise<Stored<unknown> | null> => {
        const { rows } = await query('SELECT key, version, value FROM store_rows WHERE tbl = $1 AND key = $2', [ref.table.name, ref.key]);
        return rows[0] ? stored(rows[0] as RowResult) : null;
      };
      const countRange = async (count: { table: AnyTable; index: string; prefix: readonly KeyPart[] }): Promise<number> => {
        const start = prefixOf({ prefix: count.prefix });
        const { rows } = await query(COUNT_RANGE, [count.table.name, count.index, start, `${start}${KEY_END}`]);
        return (rows[0] as { n: number } | undefined)?.n ?? 0;
      };
      const readMany = async (many: readonly Ref[]): Promise<(Stored<unknown> | null)[]> => {
        // COLLATE "C" on the arrays' side too: both sides of the join compare as the columns do, whatever the database's default.
        const { rows } = await query(
          `SELECT r.tbl, r.key, r.version, r.value FROM unnest($1::text[], $2::text[]) AS q(tbl, key)
           JOIN store_rows r ON r.tbl = q.tbl COLLATE "C" AND r.key = q.key COLLATE "C"`,
          [many.map((ref) => ref.table.name), many.map((ref) => ref.key)],
        );
        const found = new Map((rows as (RowResult & { tbl: string })[]).map((row) => [`${row.tbl}\u0000${row.key}`, row]));
        return many.map((ref) => {
          const row = found.get(refKey(ref));
          return row ? stored(row) : null;
        });
      };
      const decision = await decideAwaiting(changes, read, countRange, refs, readMany);
      if ('refused' in decision) return decision.refused;
      if (decision.writes.length > 0) await writeAll(query, decision.writes);
      return { status: 'committed' };
    });
  }
}

/**
 * Every write of a commit in one statement (one round trip, inside the commit's transaction): records put or removed,
 * and each written record's index entries made what its new value gives. An entry that stays is neither deleted nor
 * inserted again (the DELETE keeps the new entries, the INSERT skips those there), so the statement's parts, which do
 * not see each other's changes, never touch one row twice.
 */
const WRITE_ALL = `
  WITH written AS (SELECT * FROM unnest($1::text[], $2::text[]) AS w(tbl, key)),
       fresh AS (SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS f(tbl, idx, entry, key)),
       stale_entries AS (
         DELETE FROM store_entries e USING written w
         WHERE e.tbl = w.tbl AND e.key = w.key
           AND NOT EXISTS (SELECT 1 FROM fresh f WHERE f.tbl = e.tbl AND f.idx = e.idx AND f.entry = e.entry)),
       removed AS (
         DELETE FROM store_rows r USING unnest($7::text[], $8::text[]) AS g(tbl, key)
         WHERE r.tbl = g.tbl AND r.key = g.key),
       put AS (
         INSERT INTO store_rows (tbl, key, version, value)
         SELECT * FROM unnest($9::text[], $10::text[], $11::integer[], $12::bytea[])
         ON CONFLICT (tbl, key) DO UPDATE SET version = EXCLUDED.version, value = EXCLUDED.value)
  INSERT INTO store_entries (tbl, idx, entry, key) SELECT tbl, idx, entry, key FROM fresh
  ON CONFLICT (tbl, idx, entry) DO NOTHING`;

async function writeAll(query: Query, writes: readonly Write[]): Promise<void> {
  const puts = writes.filter((write) => write.op === 'put');
  const removes = writes.filter((write) => write.op === 'remove');
  const entries = puts.flatMap((write) => indexEntriesOf(write.table, write.key, write.value).map(([index, entry]) => [write.table.name, index, entry, write.key] as const));
  await query(WRITE_ALL, [
    writes.map((write) => write.table.name),
    writes.map((write) => write.key),
    ...[0, 1, 2, 3].map((column) => entries.map((entry) => entry[column])),
    removes.map((write) => write.table.name),
    removes.map((write) => write.key),
    puts.map((write) => write.table.name),
    puts.map((write) => write.key),
    puts.map((write) => write.version),
    puts.map((write) => serialize(write.value)),
  ]);
}
