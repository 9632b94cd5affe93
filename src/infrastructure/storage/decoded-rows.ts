/**
 * A database that gives a record's bytes (a stable copy) and has the `decoder` its own reads decode them with
 * (lmdb-js's databases have one, not in their types).
 */
export interface BytesSource {
  getBinary(key: string): Uint8Array | undefined;
}

interface Decoded<Row> {
  readonly bytes: Uint8Array;
  readonly row: Row;
}

/**
 * Records a technology decoded from bytes, kept per table and process with the bytes they came from, so that a read
 * whose bytes are the same as last time (compared, in whatever snapshot the read sees, whoever wrote them) is not
 * decoded again: the records every bearer request reads (its session, its account) are decoded once per write.
 * The records are frozen, since every reader of the same bytes shares one.
 */
export class DecodedRows<Row> {
  private readonly tables = new Map<string, Map<string, Decoded<Row>>>();

  /** `perTable`: the records kept per table at most (the oldest decoded goes first). */
  constructor(private readonly perTable = 10_000) {}

  /** The record under `key` in `table` as `source` holds it now, decoded only when its bytes changed; undefined when none. */
  get(table: string, source: BytesSource, key: string): Row | undefined {
    const bytes = source.getBinary(key);
    if (bytes === undefined) return undefined;
    let rows = this.tables.get(table);
    if (rows === undefined) this.tables.set(table, (rows = new Map<string, Decoded<Row>>()));
    const known = rows.get(key);
    if (known !== undefined && Buffer.compare(known.bytes, bytes) === 0) return known.row;
    const row = deepFreeze((source as unknown as { decoder: { decode(bytes: Uint8Array): Row } }).decoder.decode(bytes));
    if (known === undefined && rows.size >= this.perTable) rows.delete(rows.keys().next().value!);
    rows.set(key, { bytes, row });
    return row;
  }
}

/** Freezes a value and what it holds (but binary values, which cannot be frozen). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}
