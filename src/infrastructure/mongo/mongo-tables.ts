import type { ClientSession, Collection, Filter } from 'mongodb';
import { INDEX_COUNTS, type Ref, type Write, decideAwaiting, refsOf } from '../storage/commit-plan.js';
import { type Changes, type CommitOutcome, KEY_END, type KeyPart, type RangeQuery, type Store, type Stored, type AnyTable, type Table, endOf, expiryOf, indexEntriesOf, indexNamesOf, prefixOf } from '../storage/store.js';
import { translated } from './mongo-errors.js';
import type { MongoStore } from './mongo-store.js';

/** A record of a table: `_id` its key, `v` its version, `r` the record, `ix` its index entries, `expiresAt` for the TTL monitor. */
interface RowDocument {
  _id: string;
  v: number;
  r: unknown;
  ix: Record<string, string>;
  expiresAt?: Date;
  /** Moved on by a commit that only checks the record, so that MongoDB sees a write conflict with one that changes it. */
  t?: number;
}

/** The documents whose entry in `index` starts with `prefix`. */
const rangeOf = (index: string, prefix: readonly KeyPart[]): Filter<RowDocument> => {
  const start = prefixOf({ prefix });
  return { [`ix.${index}`]: { $gte: start, $lt: `${start}${KEY_END}` } };
};

/**
 * The storage primitive in MongoDB: a table is the collection `kv.<name>`, its indexes `ix.<index>` (one encoded
 * string each) and a TTL index on `expiresAt`. A commit is one majority transaction: it reads the records it touches,
 * decides (commit-plan.ts), writes; a record it only checks is touched too, since MongoDB detects conflicts between
 * writes only.
 */
export class MongoTables implements Store {
  private readonly prepared = new Map<string, Promise<unknown>>();

  constructor(private readonly store: MongoStore) {}

  async get<R>(table: Table<R>, key: string): Promise<Stored<R> | null> {
    const collection = await this.of(table);
    const doc = await this.store.guarded((signal) => collection.findOne({ _id: key }, { signal }));
    return doc ? { key, value: doc.r as R, version: doc.v } : null;
  }

  async range<R>(table: Table<R>, index: string, query: RangeQuery): Promise<Stored<R>[]> {
    const collection = await this.of(table);
    const field = `ix.${index}`;
    const prefix = prefixOf(query);
    const end = endOf(query);
    const bounds = query.reverse
      ? { $gte: prefix, $lt: query.after ?? end }
      : { ...(query.after === undefined ? { $gte: prefix } : { $gt: query.after }), $lt: end };
    const filter = { [field]: bounds } as Filter<RowDocument>;
    const docs = await this.store.guarded((signal) =>
      collection.find(filter, { sort: { [field]: query.reverse ? -1 : 1 }, limit: query.limit, signal }).toArray(),
    );
    return docs.map((doc) => ({ key: doc._id, value: doc.r as R, version: doc.v }));
  }

  async count(table: AnyTable, index: string, prefix: readonly KeyPart[]): Promise<number> {
    const collection = await this.of(table);
    return this.store.guarded((signal) => collection.countDocuments(rangeOf(index, prefix), { signal }));
  }

  async commit(changes: Changes): Promise<CommitOutcome> {
    const refs = refsOf(changes);
    const collections = new Map(await Promise.all([...refs.map((ref) => ref.table), INDEX_COUNTS].map(async (table) => [table.name, await this.of(table)] as const)));
    return translated(() =>
      this.store.transaction(async (session): Promise<CommitOutcome> => {
        const read = async (ref: Ref): Promise<Stored<unknown> | null> => {
          const doc = await collections.get(ref.table.name)?.findOne({ _id: ref.key }, { session });
          return doc ? { key: ref.key, value: doc.r, version: doc.v } : null;
        };
        // A commit that writes a count conflicts with every other that writes it, so a range counted here is exact.
        const decision = await decideAwaiting(changes, read, async (count) => (await this.of(count.table)).countDocuments(rangeOf(count.index, count.prefix), { session }), refs);
        if ('refused' in decision) return decision.refused;
        for (const write of decision.writes) await this.apply(collections.get(write.table.name), write, session);
        // A record only checked, or summed by a tally, is touched: MongoDB then sees a write conflict with one that changes it.
        const touched = [...(changes.changes ?? []).filter((change) => (change.kind === 'check' && change.expected !== null) || change.kind === 'expect'), ...(changes.atLeast ?? []).flatMap((tally) => tally.records)];
        for (const ref of touched) await collections.get(ref.table.name)?.updateOne({ _id: ref.key }, { $inc: { t: 1 } }, { session });
        return { status: 'committed' };
      }),
    );
  }

  /** Inserts records as they are (a migration's import), leaving any record already there untouched. Idempotent. */
  async importRows<R>(table: Table<R>, rows: readonly { readonly key: string; readonly value: R; readonly version: number }[]): Promise<void> {
    if (rows.length === 0) return;
    const collection = await this.of(table);
    const operations = rows.map((row) => ({ updateOne: { filter: { _id: row.key }, update: { $setOnInsert: this.document(table, row.key, row.value, row.version) }, upsert: true } }));
    await this.store.guarded(() => collection.bulkWrite(operations, { ordered: false }));
  }

  private document(table: AnyTable, key: string, value: unknown, version: number): RowDocument {
    const expiresAt = expiryOf(table, value);
    return { _id: key, v: version, r: value, ix: Object.fromEntries(indexEntriesOf(table, key, value)), ...(expiresAt === null ? {} : { expiresAt: new Date(expiresAt) }) };
  }

  private async apply(collection: Collection<RowDocument> | undefined, write: Write, session: ClientSession): Promise<void> {
    if (write.op === 'remove') await collection?.deleteOne({ _id: write.key }, { session });
    else await collection?.replaceOne({ _id: write.key }, this.document(write.table, write.key, write.value, write.version), { session, upsert: true });
  }

  /** The collection of a table, its indexes created once per process (idempotent on the server). */
  private async of(table: AnyTable): Promise<Collection<RowDocument>> {
    const collection = this.store.db.collection<RowDocument>(`kv.${table.name}`);
    let prepared = this.prepared.get(table.name);
    if (!prepared) {
      const indexes = indexNamesOf(table).map((index) => ({ key: { [`ix.${index}`]: 1 }, name: `ix_${index}`, sparse: true }));
      const ttl = table.expiresAt ? [{ key: { expiresAt: 1 }, name: 'expires_ttl', expireAfterSeconds: 0 }] : [];
      prepared = [...indexes, ...ttl].length === 0 ? Promise.resolve() : this.store.guarded(() => collection.createIndexes([...indexes, ...ttl]));
      prepared.catch(() => this.prepared.delete(table.name));
      this.prepared.set(table.name, prepared);
    }
    await prepared;
    return collection;
  }
}
