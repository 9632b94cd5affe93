import type { Database } from 'lmdb';
import { INDEX_COUNTS, type Ref, type Write, decideNow, refsOf } from '../storage/commit-plan.js';
import { type Changes, type CommitOutcome, KEY_END, oncePerTask, type KeyPart, type RangeQuery, type Store, type Stored, type AnyTable, type Table, endOf, indexEntriesOf, indexNamesOf, prefixOf } from '../storage/store.js';
import { DecodedRows } from '../storage/decoded-rows.js';
import type { LmdbStore } from './lmdb-store.js';

interface Row {
  readonly v: number;
  readonly r: unknown;
}

/**
 * The databases of one table: its records, and one per index (entry → record key). Entries are binary keys (their
 * UTF-8 bytes), so that they sort as MongoDB's strings do whatever they hold.
 */
interface TableDbs {
  readonly rows: Database<Row, string>;
  readonly indexes: ReadonlyMap<string, Database<string, Buffer>>;
}

/**
 * Where a table's database keeps msgpackr's record structures, so that each record refers to its shape rather than
 * carrying it: a record decodes about three times faster (records written before carry their shape, and still read).
 */
const STRUCTURES = Symbol.for('structures');

const bytes = (entry: string): Buffer => Buffer.from(entry, 'utf8');

/**
 * The storage primitive in the LMDB environment: a table is a database of records and one database per index, all
 * written in the commit's one write transaction (one writer at a time, across processes, flushed before it resolves).
 * Reads outside a commit renew lmdb-js's read snapshot once per task of the loop (storage/store.ts, `oncePerTask`).
 */
export class LmdbTables implements Store {
  private readonly dbs = new Map<string, TableDbs>();
  private readonly renew = oncePerTask(() => this.store.root.resetReadTxn());
  private readonly decoded = new DecodedRows<Row>(); // rows `get` decoded: not again while their bytes are the same

  constructor(private readonly store: LmdbStore) {}

  async get<R>(table: Table<R>, key: string): Promise<Stored<R> | null> {
    this.renew();
    const row = await Promise.resolve(this.decoded.get(table.name, this.of(table).rows, key));
    return row ? { key, value: row.r as R, version: row.v } : null;
  }

  async range<R>(table: Table<R>, index: string, query: RangeQuery): Promise<Stored<R>[]> {
    const { rows } = this.of(table);
    const db = this.indexOf(table, index);
    const prefix = prefixOf(query);
    const [low, high] = [bytes(prefix), bytes(endOf(query))];
    const after = query.after === undefined ? undefined : bytes(query.after);
    const bounds = query.reverse ? { start: after ?? high, end: low } : { start: after ?? low, end: high };
    const found: Stored<R>[] = [];
    this.renew();
    for (const { key: entry, value: key } of db.getRange({ ...bounds, reverse: query.reverse ?? false })) {
      if (found.length >= query.limit) break;
      if (after?.equals(entry)) continue;
      const row = rows.get(key);
      if (row) found.push({ key, value: row.r as R, version: row.v });
    }
    return Promise.resolve(found);
  }

  count(table: AnyTable, index: string, prefix: readonly KeyPart[]): Promise<number> {
    this.renew();
    return Promise.resolve(this.countRange(table, index, prefix));
  }

  commit(changes: Changes): Promise<CommitOutcome> {
    const refs = refsOf(changes);
    for (const table of [...refs.map((ref) => ref.table), INDEX_COUNTS]) this.of(table);
    return this.store.transaction((): CommitOutcome => {
      const read = (ref: Ref) => {
        const row = this.of(ref.table).rows.get(ref.key);
        return row ? { key: ref.key, value: row.r, version: row.v } : null;
      };
      const decision = decideNow(changes, read, (count) => this.countRange(count.table, count.index, count.prefix), refs);
      if ('refused' in decision) return decision.refused;
      for (const write of decision.writes) this.apply(write);
      return { status: 'committed' };
    });
  }

  /** The entries of an index under a prefix, counted on the index (inside the current transaction, if any). */
  private countRange(table: AnyTable, index: string, prefix: readonly KeyPart[]): number {
    const start = prefixOf({ prefix });
    return this.indexOf(table, index).getKeysCount({ start: bytes(start), end: bytes(`${start}${KEY_END}`) });
  }

  /** Opens the databases of these tables (outside any transaction: LMDB opens none inside one). */
  prepare(tables: readonly AnyTable[]): void {
    for (const table of tables) this.of(table);
  }

  /** Writes a record at `version` as it is, inside the current write transaction (a migration's import). */
  importInTransaction<R>(table: Table<R>, key: string, value: R, version: number): void {
    this.apply({ op: 'put', table, key, value, version, previous: this.of(table).rows.get(key)?.r ?? null });
  }

  /** Every record of a table, in key order (a migration's walk). */
  *recordsOf<R>(table: Table<R>): Generator<Stored<R>> {
    for (const { key, value } of this.of(table).rows.getRange()) if (typeof key === 'string') yield { key, value: value.r as R, version: value.v };
  }

  /** Whether a record exists, read inside the current transaction. */
  hasInTransaction(table: AnyTable, key: string): boolean {
    return this.of(table).rows.doesExist(key);
  }

  /** Writes one record and its index entries inside the current write transaction. */
  private apply(write: Write): void {
    const { rows, indexes } = this.of(write.table);
    const entries = (value: unknown) => indexEntriesOf(write.table, write.key, value).map(([index, entry]) => [indexes.get(index), bytes(entry)] as const);
    if (write.previous !== null) for (const [db, entry] of entries(write.previous)) void db?.remove(entry);
    if (write.op === 'remove') {
      void rows.remove(write.key);
      return;
    }
    void rows.put(write.key, { v: write.version, r: write.value });
    for (const [db, entry] of entries(write.value)) void db?.put(entry, write.key);
  }

  private indexOf(table: AnyTable, index: string): Database<string, Buffer> {
    const db = this.of(table).indexes.get(index);
    if (!db) throw new Error(`table ${table.name} has no index ${index}`);
    return db;
  }

  private of(table: AnyTable): TableDbs {
    let dbs = this.dbs.get(table.name);
    if (!dbs) {
      const { root } = this.store;
      dbs = {
        rows: root.openDB<Row, string>({ name: `t:${table.name}`, sharedStructuresKey: STRUCTURES }),
        indexes: new Map(indexNamesOf(table).map((index) => [index, root.openDB<string, Buffer>({ name: `i:${table.name}:${index}`, keyEncoding: 'binary' })])),
      };
      this.dbs.set(table.name, dbs);
    }
    return dbs;
  }
}
