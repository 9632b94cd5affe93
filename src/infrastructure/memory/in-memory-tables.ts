import { type Write, decideNow, indexCountsOf } from '../storage/commit-plan.js';
import { type Changes, type CommitOutcome, type KeyPart, type RangeQuery, type Store, type Stored, type AnyTable, type Table, endOf, indexEntriesOf, indexNamesOf, prefixOf } from '../storage/store.js';

/**
 * The storage primitive in memory: one Map per table, records kept by copy. A commit reads, decides and writes in
 * one synchronous step, atomic on Node's one thread as a transaction is; range reads walk the table (tests only).
 */
export class InMemoryTables implements Store {
  private readonly tables = new Map<string, Map<string, Stored<unknown>>>();

  private isClosed = false;

  /** True once closed: the health check refuses from then on, like a store whose handle is gone. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Marks the store closed. Idempotent. */
  close(): Promise<void> {
    this.isClosed = true;
    return Promise.resolve();
  }

  async get<R>(table: Table<R>, key: string): Promise<Stored<R> | null> {
    await Promise.resolve();
    const stored = this.rows(table.name).get(key);
    return stored ? (structuredClone(stored) as Stored<R>) : null;
  }

  async range<R>(table: Table<R>, index: string, query: RangeQuery): Promise<Stored<R>[]> {
    await Promise.resolve();
    if (!indexNamesOf(table).includes(index)) throw new Error(`table ${table.name} has no index ${index}`);
    const prefix = prefixOf(query);
    const end = endOf(query);
    const inRange = (entry: string) =>
      entry.startsWith(prefix) && (query.below === undefined || entry < end) && (query.after === undefined || (query.reverse ? entry < query.after : entry > query.after));
    const entries = [...this.rows(table.name).values()].flatMap((stored) => {
      const entry = indexEntriesOf(table as AnyTable, stored.key, stored.value).find(([name]) => name === index)?.[1];
      return entry !== undefined && inRange(entry) ? [{ entry, stored }] : [];
    });
    entries.sort((a, b) => (a.entry < b.entry ? -1 : 1) * (query.reverse ? -1 : 1));
    return entries.slice(0, query.limit).map(({ stored }) => structuredClone(stored) as Stored<R>);
  }

  async count(table: AnyTable, index: string, prefix: readonly KeyPart[]): Promise<number> {
    return (await this.range(table as Table<unknown>, index, { prefix, limit: Number.MAX_SAFE_INTEGER })).length;
  }

  async commit(changes: Changes): Promise<CommitOutcome> {
    await Promise.resolve();
    const decision = decideNow(changes, (ref) => this.rows(ref.table.name).get(ref.key) ?? null, (count) =>
      [...this.rows(count.table.name).values()].filter((stored) => indexCountsOf(count.table, stored.value).some((of) => of.key === count.key)).length);
    if ('refused' in decision) return decision.refused;
    for (const write of decision.writes) this.apply(write);
    return { status: 'committed' };
  }

  /** Every record of a table, by copy (what a test looks at; no store has a cheap equivalent). */
  rowsOf<R>(table: Table<R>): Stored<R>[] {
    return [...this.rows(table.name).values()].map((stored) => structuredClone(stored) as Stored<R>);
  }

  private apply(write: Write): void {
    const rows = this.rows(write.table.name);
    if (write.op === 'remove') rows.delete(write.key);
    else rows.set(write.key, structuredClone({ key: write.key, value: write.value, version: write.version }));
  }

  private rows(name: string): Map<string, Stored<unknown>> {
    let rows = this.tables.get(name);
    if (!rows) this.tables.set(name, (rows = new Map<string, Stored<unknown>>()));
    return rows;
  }
}
