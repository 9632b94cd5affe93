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
      for (const write of decision.writes) await this.apply(query, write);
      return { status: 'committed' };
    });
  }

  /** Writes one record (or removes it) and replaces its index entries, inside the commit's transaction. */
  private async apply(query: Query, write: Write): Promise<void> {
    const { table, key } = write;
    if (write.previous !== null) await query('DELETE FROM store_entries WHERE tbl = $1 AND key = $2', [table.name, key]);
    if (write.op === 'remove') {
      await query('DELETE FROM store_rows WHERE tbl = $1 AND key = $2', [table.name, key]);
      return;
    }
    await query(
      `INSERT INTO store_rows (tbl, key, version, value) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tbl, key) DO UPDATE SET version = EXCLUDED.version, value = EXCLUDED.value`,
      [table.name, key, write.version, serialize(write.value)],
    );
    const entries = indexEntriesOf(table, key, write.value);
    if (entries.length === 0) return;
    const values = entries.map((_, i) => `($1, $${2 * i + 3}, $${2 * i + 4}, $2)`).join(', ');
    await query(`INSERT INTO store_entries (tbl, idx, entry, key) VALUES ${values}`, [table.name, key, ...entries.flat()]);
  }
}
