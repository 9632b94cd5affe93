import { type AnyTable, type Stored, indexEntriesOf } from './store.js';

/**
 * The records of one store as its technology keeps them, read for a copy into another (`npm run store:copy`,
 * docs/store-copy.md): every value exactly as stored, its personal fields still sealed (nothing here opens them).
 */
export interface RowReader {
  /** The names of the tables that hold at least one record (declared or not). */
  tableNames(): Promise<readonly string[]>;
  /** Every record of `table`, in key order, with its key and version as stored. */
  rowsOf(table: AnyTable): AsyncIterable<Stored<unknown>>;
}

/** A store to copy from: `where` names it (no password), `read` runs over one view that nothing writes meanwhile. */
export interface RowSource {
  readonly where: string;
  /** Opens (and holds) the store, runs `read`, releases it, whatever `read` did; rejects when it cannot be held. */
  read<T>(read: (reader: RowReader) => Promise<T>): Promise<T>;
}

/** What a copy writes into its target. */
export interface RowWriter {
  /** How many records the target holds (before this copy wrote any). */
  held(): Promise<number>;
  /**
   * Writes `rows` of `table` with their keys and versions as given, and the index entries the table's declaration
   * gives them (`indexEntriesOf`: the same every commit writes).
   */
  write(table: AnyTable, rows: readonly Stored<unknown>[]): Promise<void>;
}

/** A store to copy into. */
export interface RowSink {
  readonly where: string;
  /** Opens (and holds) the store and runs `write` all or nothing: what it wrote stays only when it resolves. */
  fill<T>(write: (writer: RowWriter) => Promise<T>): Promise<T>;
}

/** What one copy did, by table name and in all. */
export interface CopySummary {
  readonly records: number;
  readonly indexEntries: number;
  readonly tables: Readonly<Record<string, { readonly records: number; readonly indexEntries: number }>>;
}

/** A copy refused before anything was written (a non-empty target, a table this version does not declare). */
export class CopyRefused extends Error {
  override readonly name = 'CopyRefused';
}

/** Records written per call of `RowWriter.write` (a PostgreSQL statement, an LMDB write transaction). */
export const COPY_BATCH = 500;

/**
 * Copies every record of `tables` (the composition's schema: every table a manifest declares) from `source` into
 * `sink`, keys, versions and values as stored, in batches, all or nothing (as the sink's `fill` is).
 *
 * Index entries are not read from the source: each technology keeps them in its own shape (LMDB a database per index,
 * PostgreSQL `store_entries`, MongoDB fields of the record) and they are a function of the record and its table's
 * declaration, so the sink writes those `indexEntriesOf` gives, as a commit would. The counts of counted indexes
 * (`index-counts`) are records and are copied as they are, matching the entries written.
 *
 * Refused, with nothing written: when the target holds any record (nothing is merged by accident), or when the source
 * holds records of a table `tables` does not declare (they would be left behind).
 */
export async function copyRows(source: RowSource, sink: RowSink, tables: readonly AnyTable[]): Promise<CopySummary> {
  return source.read(async (reader) => {
    const declared = new Set(tables.map((table) => table.name));
    const unknown = (await reader.tableNames()).filter((name) => !declared.has(name));
    if (unknown.length > 0) throw new CopyRefused(`${source.where} holds records of ${unknown.join(', ')}, which this version does not declare: copy it with the version that wrote them`);
    return sink.fill(async (writer) => {
      const held = await writer.held();
      if (held > 0) throw new CopyRefused(`${sink.where} already holds ${held} record${held === 1 ? '' : 's'}: copy into an empty store (nothing is merged)`);
      const copied: Record<string, { records: number; indexEntries: number }> = {};
      let records = 0;
      let indexEntries = 0;
      for (const table of tables) {
        let batch: Stored<unknown>[] = [];
        const counted = { records: 0, indexEntries: 0 };
        const flush = async () => {
          await writer.write(table, batch);
          counted.records += batch.length;
          counted.indexEntries += batch.reduce((sum, row) => sum + indexEntriesOf(table, row.key, row.value).length, 0);
          batch = [];
        };
        for await (const row of reader.rowsOf(table)) {
          batch.push(row);
          if (batch.length >= COPY_BATCH) await flush();
        }
        if (batch.length > 0) await flush();
        if (counted.records === 0) continue;
        copied[table.name] = counted;
        records += counted.records;
        indexEntries += counted.indexEntries;
      }
      return { records, indexEntries, tables: copied };
    });
  });
}
