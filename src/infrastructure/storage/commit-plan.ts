import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { EVENTS, type EventRecord, nextSeq } from './event-tables.js';
import { type AnyTable, type Changes, type CommitOutcome, type Count, type EventProjection, type KeyPart, type RangeBound, type Store, type Stored, type Table, encodeIndexKey } from './store.js';

/** A value claimed unique, held by its owner: `<name>:<value>` in CLAIMS. */
export interface ClaimRecord {
  readonly owner: string;
}

/** A conditional counter: the attempts within its window, newest first (epoch ms), and when it may be swept. */
export interface CounterRecord {
  readonly times: readonly number[];
  readonly expiresAt: number;
}

/** The table of every claimed unique value. */
export const CLAIMS: Table<ClaimRecord> = { name: 'claims', indexes: {}, owner: { none: 'claimed values (an address, a credential id), released by name with what claimed them' } };

/** The table of every conditional counter; a counter whose window ended is swept. */
export const COUNTERS: Table<CounterRecord> = {
  name: 'counters',
  indexes: {},
  expiresAt: (record) => record.expiresAt,
  owner: { none: 'attempt counters, keyed by address, client, session or challenge: each goes when its window ends' },
};

/** How many entries a counted index holds under one prefix (`Table.counted`); removed when it reaches 0. */
export interface IndexCountRecord {
  readonly count: number;
}

/** The counts of every counted index, by `indexCountKey`. */
export const INDEX_COUNTS: Table<IndexCountRecord> = { name: 'index-counts', indexes: {}, owner: { none: 'counts of index ranges, kept by every commit and removed at 0 with the last entry they count' } };

/** The key of the count of `index`'s entries under `prefix`. */
export const indexCountKey = (table: AnyTable, index: string, prefix: readonly KeyPart[]): string => `${table.name}\u0002${index}\u0002${encodeIndexKey(prefix)}`;

/** One count of a counted index that a commit changes: which prefix, and the key of its record. */
export interface IndexCount {
  readonly table: AnyTable;
  readonly index: string;
  readonly prefix: readonly KeyPart[];
  readonly key: string;
}

/** The counts a record of `table` is counted under (none when the table counts no index, or the record is in none). */
export function indexCountsOf(table: AnyTable, value: unknown): IndexCount[] {
  if (!table.counted || value === null) return [];
  return Object.entries(table.counted).flatMap(([index, length]) => {
    const parts = (table as Table<unknown>).indexes[index]?.(value);
    if (!parts) return [];
    const prefix = parts.slice(0, length);
    return [{ table, index, prefix, key: indexCountKey(table, index, prefix) }];
  });
}

/** Whether two values of a record are counted under the same prefixes (a change that moves no count: a session used). */
function sameCounts(table: AnyTable, before: unknown, after: unknown): boolean {
  if (before === null) return false;
  return Object.entries(table.counted ?? {}).every(([index, length]) => {
    const keyOf = (table as Table<unknown>).indexes[index];
    const [a, b] = [keyOf?.(before) ?? null, keyOf?.(after) ?? null];
    return a === null || b === null ? a === b : a.slice(0, length).every((part, i) => part === b[i]);
  });
}

/**
 * How many records `index` of `table` holds under `prefix`: one read where the table counts that index at that
 * prefix's length, the walk of the range (`Store.count`) otherwise, and where no commit has counted it yet (a count
 * is first written by the commit that next changes it, from the range as it is inside that commit).
 */
export async function countOf(store: Pick<Store, 'get' | 'count'>, table: AnyTable, index: string, prefix: readonly KeyPart[]): Promise<number> {
  if (table.counted?.[index] !== prefix.length) return store.count(table, index, prefix);
  return (await store.get(INDEX_COUNTS, indexCountKey(table, index, prefix)))?.value.count ?? store.count(table, index, prefix);
}


/** Attempts kept per counter at most, whatever its cap. */
const MAX_COUNTED = 1000;

export const claimKey = (name: string, value: string): string => `${name}:${value}`;

/** The owner of a claimed value, or null when it is free. */
export const ownerOf = async (store: Pick<Store, 'get'>, name: string, value: string): Promise<string | null> =>
  (await store.get(CLAIMS, claimKey(name, value)))?.value.owner ?? null;

/** One record a commit reads before it decides. */
export interface Ref {
  readonly table: AnyTable;
  readonly key: string;
}

/** One record a commit writes: `value` at `version`, or removed; `previous`, the value it replaces (for its index entries). */
export type Write =
  | { readonly op: 'put'; readonly table: AnyTable; readonly key: string; readonly value: unknown; readonly version: number; readonly previous: unknown }
  | { readonly op: 'remove'; readonly table: AnyTable; readonly key: string; readonly previous: unknown };

/** The records a commit reads: every record it writes or checks, every claim and counter it touches. */
export function refsOf(changes: Changes): Ref[] {
  const refs = new Map<string, Ref>();
  const add = (table: AnyTable, key: string) => refs.set(`${table.name}\u0000${key}`, { table, key });
  for (const change of changes.changes ?? []) {
    add(change.table, change.key);
    // A new record adds to its counts: read them with the rest (a count only a change of an existing record moves is
    // read once decide has its previous value: `uncounted`).
    if (change.kind === 'put' && change.expected === null) for (const count of indexCountsOf(change.table, change.value)) add(INDEX_COUNTS, count.key);
  }
  for (const claim of [...(changes.claims ?? []), ...(changes.releases ?? [])]) add(CLAIMS, claimKey(claim.name, claim.value));
  for (const key of [...[...(changes.counts ?? []), ...(changes.below ?? [])].map((count) => count.key), ...(changes.clears ?? [])]) add(COUNTERS, key);
  for (const event of changes.events ?? []) for (const ref of [{ table: EVENTS as AnyTable, key: event.eventId }, ...projectedRefs(event, changes.projections)]) add(ref.table, ref.key);
  for (const range of [...(changes.ranges ?? []), ...(changes.atLeast ?? []).flatMap((tally) => tally.ranges)]) add(INDEX_COUNTS, indexCountKey(range.table, range.index, range.prefix));
  for (const record of (changes.atLeast ?? []).flatMap((tally) => tally.records)) add(record.table, record.key);
  return [...refs.values()];
}

export const refKey = (ref: Ref): string => `${ref.table.name}\u0000${ref.key}`;

/**
 * What a commit does, decided from the records it read: refuse (writing nothing), write these, or first tell it these
 * counts of counted indexes, which it did not read (`uncounted`: their records, or where there is none the range
 * counted inside the transaction; then decide again).
 */
export type Decision = { readonly refused: CommitOutcome } | { readonly writes: readonly Write[] } | { readonly uncounted: readonly IndexCount[] };

const NO_COUNTS: ReadonlyMap<string, number> = new Map();

/** Whether `projection` reads events of `type` (its `on`). */
const reads = (projection: EventProjection<unknown>, type: string): boolean => projection.on === 'every' || projection.on.includes(type);

/** The records the projections of `event` change, for the commit's read set. */
const projectedRefs = (event: RecordedEvent, projections: readonly EventProjection<unknown>[] = []): { table: AnyTable; key: string }[] =>
  projections.flatMap((projection) => {
    const change = reads(projection, event.type) ? projection.changeOf(event, '') : null;
    return change ? [{ table: projection.table, key: change.key }] : [];
  });

/**
 * Decides a commit from the current state of the records it reads (`current`, by refKey; missing: no record), the
 * same way for every store: versions compared, claims checked, counters counted, events appended (an event id
 * already stored is skipped) each at the next place in the log, with what the projections make of them.
 */
export function decide(changes: Changes, current: ReadonlyMap<string, Stored<unknown>>, indexCounts: ReadonlyMap<string, number> = NO_COUNTS): Decision {
  const state = new Map(current);
  const writes: Write[] = [];
  const read = (table: AnyTable, key: string) => state.get(refKey({ table, key })) ?? null;
  const write = (decided: Write) => {
    const next = decided.op === 'put' && changes.seal ? { ...decided, value: changes.seal(decided.table, decided.key, decided.value) } : decided;
    writes.push(next);
    const ref = refKey(next);
    if (next.op === 'put') state.set(ref, { key: next.key, value: next.value, version: next.version });
    else state.delete(ref);
  };
  for (const change of changes.changes ?? []) {
    const stored = read(change.table, change.key);
    if (change.kind === 'expect') {
      if (!(change.holds as (value: unknown) => boolean)(stored?.value ?? null)) return { refused: { status: 'conflict' } };
      continue;
    }
    if (change.expected !== 'any' && (stored?.version ?? null) !== change.expected) return { refused: { status: 'conflict' } };
    const version = stored ? stored.version + 1 : 0;
    if (change.kind === 'put') write({ op: 'put', table: change.table, key: change.key, value: change.value, version, previous: stored?.value ?? null });
    if (change.kind === 'remove' && stored) write({ op: 'remove', table: change.table, key: change.key, previous: stored.value });
  }
  for (const claim of changes.claims ?? []) {
    const key = claimKey(claim.name, claim.value);
    const held = read(CLAIMS, key) as Stored<ClaimRecord> | null;
    if (held && held.value.owner !== claim.owner) return { refused: { status: 'taken', claim: claim.name } };
    if (!held) write({ op: 'put', table: CLAIMS, key, value: { owner: claim.owner }, version: 0, previous: null });
  }
  for (const release of changes.releases ?? []) {
    const key = claimKey(release.name, release.value);
    const held = read(CLAIMS, key);
    if (held) write({ op: 'remove', table: CLAIMS, key, previous: held.value });
  }
  const counted = (count: Count) => ((read(COUNTERS, count.key) as Stored<CounterRecord> | null)?.value.times ?? []).filter((time) => time > count.at - count.windowMs);
  /** The refusal of a count at its cap (its oldest counted attempt leaves the window at `retryAt`), or null below it. */
  const limited = (count: Count, times: readonly number[]): { refused: CommitOutcome } | null => {
    const oldestCounted = times[count.max - 1];
    return oldestCounted === undefined ? null : { refused: { status: 'limited', key: count.key, retryAt: oldestCounted + count.windowMs } };
  };
  for (const count of changes.below ?? []) {
    const refusal = limited(count, counted(count));
    if (refusal) return refusal;
  }
  for (const key of changes.clears ?? []) {
    const counter = read(COUNTERS, key);
    if (counter) write({ op: 'remove', table: COUNTERS, key, previous: counter.value });
  }
  for (const count of changes.counts ?? []) {
    const counter = read(COUNTERS, count.key) as Stored<CounterRecord> | null;
    const times = counted(count);
    const refusal = limited(count, times);
    if (refusal) return refusal;
    const value: CounterRecord = {
      times: [count.at, ...times].sort((a, b) => b - a).slice(0, MAX_COUNTED),
      expiresAt: Math.max(counter?.value.expiresAt ?? 0, count.at + count.windowMs),
    };
    write({ op: 'put', table: COUNTERS, key: count.key, value, version: counter ? counter.version + 1 : 0, previous: counter?.value ?? null });
  }
  for (const event of changes.events ?? []) {
    if (read(EVENTS, event.eventId)) continue;
    const seq = nextSeq();
    write({ op: 'put', table: EVENTS, key: event.eventId, value: { ...event, seq } satisfies EventRecord, version: 0, previous: null });
    for (const projection of changes.projections ?? []) {
      const change = reads(projection, event.type) ? projection.changeOf(event, seq) : null;
      if (!change) continue;
      const table = projection.table as AnyTable;
      const current = read(table, change.key);
      const next = change.next(current?.value ?? null);
      // A projection that gives the current record back (the directory's entry at each sign-in) writes nothing.
      if (next !== null && current !== null && next === current.value) continue;
      if (next !== null) write({ op: 'put', table, key: change.key, value: next, version: current ? current.version + 1 : 0, previous: current?.value ?? null });
      else if (current) write({ op: 'remove', table, key: change.key, previous: current.value });
    }
  }
  return countIndexes(writes, changes, read, indexCounts, write) ?? { writes };
}

/**
 * Moves the counts of counted indexes by what `writes` add to and take from them, writing each count that moved
 * (removed at 0) and each bounded or summed one; refuses a commit that leaves a bounded range outside its bounds or a
 * tally below its minimum; or asks for the counts it knows neither the record nor the range's count of (`uncounted`).
 * Null: decided, nothing refused.
 */
function countIndexes(
  writes: readonly Write[],
  { ranges = [], atLeast = [] }: Changes,
  read: (table: AnyTable, key: string) => Stored<unknown> | null,
  indexCounts: ReadonlyMap<string, number>,
  write: (next: Write) => void,
): Exclude<Decision, { writes: unknown }> | null {
  if (ranges.length + atLeast.length === 0 && !writes.some((next) => next.table.counted)) return null;
  const deltas = new Map<string, { count: IndexCount; delta: number }>();
  const move = (count: IndexCount, by: number) => deltas.set(count.key, { count, delta: (deltas.get(count.key)?.delta ?? 0) + by });
  for (const next of writes) {
    if (!next.table.counted || (next.op === 'put' && sameCounts(next.table, next.previous, next.value))) continue;
    for (const count of indexCountsOf(next.table, next.previous)) move(count, -1);
    if (next.op === 'put') for (const count of indexCountsOf(next.table, next.value)) move(count, 1);
  }
  const bounded = new Map([...atLeast.flatMap((tally) => tally.ranges), ...ranges].map((range): [string, RangeBound] => [indexCountKey(range.table, range.index, range.prefix), range]));
  for (const [key, range] of bounded) {
    if (range.table.counted?.[range.index] !== range.prefix.length) throw new Error(`${range.table.name}.${range.index} is not counted at ${range.prefix.length} key parts`);
    move({ table: range.table, index: range.index, prefix: range.prefix, key }, 0);
  }
  const uncounted: IndexCount[] = [];
  const counts = new Map<string, number>();
  for (const { count, delta } of deltas.values()) {
    const range = bounded.get(count.key);
    if (delta === 0 && !range) continue;
    const stored = read(INDEX_COUNTS, count.key) as Stored<IndexCountRecord> | null;
    const base = stored?.value.count ?? indexCounts.get(count.key);
    if (base === undefined) {
      uncounted.push(count);
      continue;
    }
    const next = Math.max(0, base + delta);
    counts.set(count.key, next);
    if (range && (next < (range.min ?? 0) || next > (range.max ?? Number.POSITIVE_INFINITY))) return { refused: { status: 'out_of_range', count: next } };
    // A bounded count is written even when unchanged: a commit that checks it then conflicts with one that moves it.
    if (next > 0) write({ op: 'put', table: INDEX_COUNTS, key: count.key, value: { count: next }, version: stored ? stored.version + 1 : 0, previous: stored?.value ?? null });
    else if (stored) write({ op: 'remove', table: INDEX_COUNTS, key: count.key, previous: stored.value });
  }
  if (uncounted.length > 0) return { uncounted };
  for (const tally of atLeast) {
    const total = tally.ranges.reduce((sum, range) => sum + (counts.get(indexCountKey(range.table, range.index, range.prefix)) ?? 0), 0) +
      tally.records.reduce((sum, record) => sum + (record.weight as (value: unknown) => number)(read(record.table, record.key)?.value ?? null), 0);
    if (total < tally.min) return { refused: { status: 'out_of_range', count: total } };
  }
  return null;
}

/** What a commit's decision reads inside the store's transaction: records, or the counts of index ranges. */
export type DecisionRead = { readonly records: readonly Ref[] } | { readonly ranges: readonly IndexCount[] };

type Decided = Exclude<Decision, { uncounted: unknown }>;

/**
 * A commit's decision as the reads it takes, each a batch: the records of `refsOf`; then, where decide asks for counts
 * it did not read, their records, and the ranges of those that have none, counted. Each store answers the reads
 * inside its transaction (`decideNow` where its reads are synchronous, `decideAwaiting` where they are not).
 */
function* deciding(changes: Changes, refs: readonly Ref[]): Generator<DecisionRead, Decided, readonly (Stored<unknown> | null | number)[]> {
  const current = new Map<string, Stored<unknown>>();
  const take = (refs: readonly Ref[], found: readonly (Stored<unknown> | null | number)[]) =>
    refs.filter((ref, i) => {
      const stored = found[i];
      if (stored !== null && typeof stored === 'object') current.set(refKey(ref), stored);
      return !stored;
    });
  take(refs, yield { records: refs });
  const first = decide(changes, current);
  if (!('uncounted' in first)) return first;
  const countRefs = first.uncounted.map((count) => ({ table: INDEX_COUNTS, key: count.key }));
  const missing = new Set(take(countRefs, yield { records: countRefs }).map((ref) => ref.key));
  const ranges = first.uncounted.filter((count) => missing.has(count.key));
  const sizes = ranges.length === 0 ? [] : yield { ranges };
  const second = decide(changes, current, new Map(ranges.map((count, i) => [count.key, Number(sizes[i])])));
  if ('uncounted' in second) throw new Error(`counts still unknown once read: ${second.uncounted.map((count) => count.key).join(', ')}`);
  return second;
}

/** Decides a commit in a transaction whose reads are synchronous (memory, LMDB); `refs`: its `refsOf`, if taken already. */
export function decideNow(changes: Changes, read: (ref: Ref) => Stored<unknown> | null, countRange: (count: IndexCount) => number, refs = refsOf(changes)): Decided {
  const steps = deciding(changes, refs);
  for (let step = steps.next(); ; ) {
    if (step.done) return step.value;
    step = steps.next('records' in step.value ? step.value.records.map(read) : step.value.ranges.map(countRange));
  }
}

/** Decides a commit in a transaction whose reads are asynchronous (MongoDB), one read at a time. */
export async function decideAwaiting(
  changes: Changes,
  read: (ref: Ref) => Promise<Stored<unknown> | null>,
  countRange: (count: IndexCount) => Promise<number>,
  refs = refsOf(changes),
  /** Reads a step's records at once (one round trip where the store is across a network), in the order given; absent: one `read` each. */
  readMany?: (refs: readonly Ref[]) => Promise<(Stored<unknown> | null)[]>,
): Promise<Decided> {
  const steps = deciding(changes, refs);
  for (let step = steps.next(); ; ) {
    if (step.done) return step.value;
    const answers: (Stored<unknown> | null | number)[] = [];
    if ('records' in step.value) {
      if (readMany && step.value.records.length > 1) answers.push(...(await readMany(step.value.records)));
      else for (const ref of step.value.records) answers.push(await read(ref));
    } else for (const count of step.value.ranges) answers.push(await countRange(count));
    step = steps.next(answers);
  }
}
