import { MFA_CHALLENGES } from './factor-tables.js';
import { WEBAUTHN_CHALLENGES } from './passkey-tables.js';
import { EVENTS, type EventRecord, nextSeq } from './event-tables.js';
import { PROJECTIONS, projectedRefs } from './projections.js';
import type { AnyTable, Changes, CommitOutcome, Count, Store, Stored, Table } from './store.js';

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
export const CLAIMS: Table<ClaimRecord> = { name: 'claims', indexes: {} };

/** The table of every conditional counter; a counter whose window ended is swept. */
export const COUNTERS: Table<CounterRecord> = { name: 'counters', indexes: {}, expiresAt: (record) => record.expiresAt };

/** Every table whose records expire: the expiry sweep walks each (a new expiring table is a line here). */
export const EXPIRING_TABLES: readonly AnyTable[] = [COUNTERS, MFA_CHALLENGES, WEBAUTHN_CHALLENGES];

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
  for (const change of changes.changes ?? []) add(change.table, change.key);
  for (const claim of [...(changes.claims ?? []), ...(changes.releases ?? [])]) add(CLAIMS, claimKey(claim.name, claim.value));
  for (const key of [...[...(changes.counts ?? []), ...(changes.below ?? [])].map((count) => count.key), ...(changes.clears ?? [])]) add(COUNTERS, key);
  for (const event of changes.events ?? []) for (const ref of [{ table: EVENTS as AnyTable, key: event.eventId }, ...projectedRefs(event)]) add(ref.table, ref.key);
  return [...refs.values()];
}

export const refKey = (ref: Ref): string => `${ref.table.name}\u0000${ref.key}`;

/** What a commit does, decided from the records it read: refuse (writing nothing), or write these. */
export type Decision = { readonly refused: CommitOutcome } | { readonly writes: readonly Write[] };

/**
 * Decides a commit from the current state of the records it reads (`current`, by refKey; missing: no record), the
 * same way for every store: versions compared, claims checked, counters counted, events appended (an event id
 * already stored is skipped) each at the next place in the log, with what the projections make of them.
 */
export function decide(changes: Changes, current: ReadonlyMap<string, Stored<unknown>>): Decision {
  const state = new Map(current);
  const writes: Write[] = [];
  const read = (table: AnyTable, key: string) => state.get(refKey({ table, key })) ?? null;
  const write = (next: Write) => {
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
    for (const projection of PROJECTIONS) {
      const change = projection.changeOf(event, seq);
      if (!change) continue;
      const table = projection.table as AnyTable;
      const current = read(table, change.key);
      const next = change.next(current?.value ?? null);
      if (next !== null) write({ op: 'put', table, key: change.key, value: next, version: current ? current.version + 1 : 0, previous: current?.value ?? null });
      else if (current) write({ op: 'remove', table, key: change.key, previous: current.value });
    }
  }
  return { writes };
}
