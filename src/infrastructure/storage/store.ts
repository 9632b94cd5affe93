import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { CredentialView } from '../../application/ports/user-read-model.port.js';
import { ServiceUnavailable } from '../../application/errors.js';

/** One part of an index key: strings order as text, numbers (non-negative integers) as numbers. */
export type KeyPart = string | number;

/**
 * Whose records a table holds, said where the table is declared: the account's erase, "remove every credential" (a
 * reset that proves the address for the first time) and the walk of every table in tests/unit/infrastructure
 * (ownership.spec.ts) read it, so nothing depends on a list someone must remember (storage/ownership.ts).
 */
export type Ownership<R = never> =
  /**
   * One account's records, found by their key (the account id) or through an index whose key starts with the
   * account id. `credential`: a way into the account (a factor, a passkey; later provider identities and keys).
   * `exported`: what the account's export (`GET /auth/me/export`, `records`) shows of a record, never a secret; or
   * where else the export shows it, or why it does not.
   */
  | {
      readonly account: 'key' | { readonly index: string };
      readonly credential: boolean;
      readonly exported: ((record: R) => Readonly<Record<string, unknown>>) | { readonly not: string };
      /**
       * Kept by the erase (the event log stays append-only): its `personal` fields are sealed under the account's data
       * key, which the erase destroys, so nothing personal of them can be read again. Records stored in clear (written
       * before sealing existed) are removed instead.
       */
      readonly shredded?: true;
      /** A first factor (a way in on its own, ownership.ts `waysInto`): 'each' record of `index`; or whether the one keyed is. */
      readonly signsIn?: 'each' | ((record: R) => boolean);
      /**
       * How the account's one list of its ways in (GET /auth/me/credentials, ownership.ts `credentialsOf`) shows a
       * record: its kind, id, name and dates, never a secret; null for a record that is no way in yet (a factor not
       * confirmed). Absent: the table's records are not listed.
       */
      readonly listed?: (record: R) => Omit<CredentialView, 'signsIn'> | null;
    }
  /** One account's records keyed as the account's records of `beside` are (an outbox entry: its event's id). */
  | { readonly account: { readonly beside: AnyTable } }
  /**
   * One account's sessions: they end together when the account's session epoch moves on (the erase moves it with
   * its marker, ENDED_EPOCHS) and the session sweep removes them; never one write per session.
   */
  | { readonly account: 'epoch' }
  /** A marker about an account that must outlive its erase (what the sweep of its sessions reads), then goes itself. */
  | { readonly account: 'marker'; readonly why: string }
  /** Not an account's records: why (claimed values are released by name; counters and counts go by themselves). */
  | { readonly none: string };

/**
 * A kind of stored state, declared once for every storage technology: its name (an LMDB database, a MongoDB
 * collection), its secondary indexes, when a record expires, and whose records it holds. Records are plain data
 * (Dates allowed).
 */
export interface Table<R> {
  readonly name: string;
  /** Whose records these are (an account's, a credential of one, or nobody's and why): see Ownership. */
  readonly owner: Ownership<R>;
  /** Each index's key of a record (null: the record is not in that index); range reads walk them in key order. */
  readonly indexes: { readonly [index: string]: (record: R) => readonly KeyPart[] | null };
  /** Epoch ms after which the sweep removes the record (null: never); absent when the table never expires. */
  readonly expiresAt?: (record: R) => number | null;
  /**
   * Indexes whose entries are counted per prefix of this many key parts (`{ liveByUse: 2 }`: per account and epoch).
   * Every commit keeps each count in the same transaction as the entries it counts, so `countOf` reads one record
   * instead of walking the range (commit-plan.ts, `INDEX_COUNTS`).
   */
  readonly counted?: { readonly [index: string]: number };
  /**
   * The record's personal data (an address, names, a client IP, a user agent): these fields are sealed at rest under
   * the data key of the account `personal.account` names and become unreadable when that key is destroyed (the
   * account's erase): sealing-store.ts. No index, expiry or condition may read them.
   */
  readonly personal?: Personal<R>;
}

/** Which fields of a record are personal data, and whose data key seals them. */
export interface Personal<R> {
  /** The account whose data key seals the record (read from fields that are not sealed); null: the service's own key. */
  readonly account: (record: R, key: string) => string | null;
  readonly fields: readonly (keyof R & string)[];
  /** Kept once its account's key is destroyed (the event log): read with the key as stored now, never a cached one. */
  readonly outlivesKey?: true;
}

/** A table whatever its record type (what a commit and the stores handle); read its records with `indexEntriesOf`. */
export type AnyTable = Table<never>;

/** A record as read: its value and the version a conditional write compares (0 when first written). */
export interface Stored<R> {
  readonly key: string;
  readonly value: R;
  readonly version: number;
}

/** One range read over an index: the entries whose key starts with `prefix`, after `after` (exclusive), in key order. */
export interface RangeQuery {
  readonly prefix: readonly KeyPart[];
  /** The entry to continue after (its `entryOf` string, as a previous page's last entry gave it); absent: from the start. */
  readonly after?: string;
  /** Only the entries whose key parts beyond the prefix sort below these (`indexKey` of them): an upper bound. */
  readonly below?: readonly KeyPart[];
  readonly limit: number;
  readonly reverse?: boolean;
}

/** The version a write expects its record at: a number, null (it must not exist yet) or 'any' (unconditional). */
export type Expected = number | null | 'any';

/** A conditional write of one record, at the version it was read at. */
export type Change =
  | { readonly kind: 'put'; readonly table: AnyTable; readonly key: string; readonly value: unknown; readonly expected: Expected }
  | { readonly kind: 'remove'; readonly table: AnyTable; readonly key: string; readonly expected: Expected }
  /** Writes nothing, but the commit holds only while the record is still at `expected` (null: still absent). */
  | { readonly kind: 'check'; readonly table: AnyTable; readonly key: string; readonly expected: number | null }
  /** Writes nothing, but the commit holds only while `holds` is true of the record (null: none), a conflict otherwise. */
  | { readonly kind: 'expect'; readonly table: AnyTable; readonly key: string; readonly holds: (value: never) => boolean };

/** A unique value (an e-mail, a credential id) held by one owner: of simultaneous claims exactly one wins. */
export interface Claim {
  readonly name: string;
  readonly value: string;
  readonly owner: string;
}

/**
 * A conditional counter: counts one attempt at `at` only while fewer than `max` are counted within `windowMs` before
 * it; otherwise the whole commit is refused ('limited'). Taken inside the commit, so N simultaneous attempts over a
 * cap of K count exactly K.
 */
export interface Count {
  readonly key: string;
  readonly at: number;
  readonly windowMs: number;
  readonly max: number;
}

/**
 * A bound on a counted index range (`Table.counted`, at that prefix length): once the commit is applied the range holds
 * at least `min` and at most `max` entries, or the whole commit is refused ('out_of_range'). Decided inside the
 * commit on the range's exact count, so N simultaneous adds to a range capped at K leave exactly K.
 */
export interface RangeBound {
  readonly table: AnyTable;
  readonly index: string;
  readonly prefix: readonly KeyPart[];
  readonly min?: number;
  readonly max?: number;
}

/**
 * A bound on a sum: the counts of counted index ranges plus the weights of records, once the commit is applied, total
 * at least `min`, or the whole commit is refused ('out_of_range'). Each range is read and written as a bounded one is,
 * each record read and (MongoDB) touched, so commits that move any term are decided one after the other.
 */
export interface Tally {
  readonly ranges: readonly Omit<RangeBound, 'min' | 'max'>[];
  readonly records: readonly { readonly table: AnyTable; readonly key: string; readonly weight: (value: never) => number }[];
  readonly min: number;
}

/** Everything one commit writes, in one transaction: all of it, or (refused) none. */
export interface Changes {
  readonly changes?: readonly Change[];
  readonly claims?: readonly Claim[];
  /** Claims given up (the value becomes free), by name and value. */
  readonly releases?: readonly Omit<Claim, 'owner'>[];
  readonly counts?: readonly Count[];
  /**
   * Counters that must still be below their cap at `at` (nothing counted): otherwise the whole commit is refused
   * ('limited'). What ends a run of failures checks it in the commit that ends it (a right password is accepted only
   * while fewer failures are counted).
   */
  readonly below?: readonly Count[];
  /** Counters emptied (after `below` is checked). */
  readonly clears?: readonly string[];
  /** Counted index ranges that must stay within their bounds. */
  readonly ranges?: readonly RangeBound[];
  /** Sums that must stay at or above their minimum. */
  readonly atLeast?: readonly Tally[];
  /** Appended (an eventId already stored is skipped), each event's projections applied in the same transaction. */
  readonly events?: readonly RecordedEvent[];
  /**
   * What each record the commit puts (events and what the projections make of them included) is stored as: the sealing
   * store's hook (sealing-store.ts), applied once the commit is decided and before the store writes it.
   */
  readonly seal?: (table: AnyTable, key: string, value: unknown) => unknown;
  /** What the events make of the tables kept beside the log (the schema's projections, given by ClosingStore). */
  readonly projections?: readonly EventProjection<unknown>[];
}

/** How one appended event changes one record of a table: `next` makes the new record from the current one (null: none). */
export interface ProjectedChange<R> {
  readonly key: string;
  readonly next: (current: R | null) => R | null;
}

/** A record kept beside the event log, derived from the events and written in the same commit as they are. */
export interface EventProjection<R> {
  readonly table: Table<R>;
  /**
   * The event types it reads (`every`: any, the outbox's, which reads the stamps): a commit runs it only for those, so
   * a sign-in's commit never runs a projection of a change of address.
   */
  readonly on: readonly string[] | 'every';
  /** The record `event` changes, and how; null when it changes none. Pure. `seq`: the event's place in the log. */
  changeOf(event: RecordedEvent, seq: string): ProjectedChange<R> | null;
}

export type CommitOutcome =
  | { readonly status: 'committed' }
  /** A record was not at its expected version: nothing written; read again and decide again. */
  | { readonly status: 'conflict' }
  /** A claimed value is held by another owner: nothing written. */
  | { readonly status: 'taken'; readonly claim: string }
  /** A counter is at its cap: nothing written; `retryAt` (epoch ms) is when its oldest counted attempt leaves the window. */
  | { readonly status: 'limited'; readonly key: string; readonly retryAt: number }
  /** A bounded range (or a tally) would hold `count` entries, outside its bounds: nothing written. */
  | { readonly status: 'out_of_range'; readonly count: number };

/**
 * The one storage primitive each technology implements (memory/, lmdb/, mongo/); every kind of state is code over
 * it. `commit` is one transaction, durable before it resolves; it throws only for a store failure
 * (ServiceUnavailable('store_unavailable') when the store cannot be reached or written).
 */
/** How a record is read: `personal: false` leaves its personal fields unopened (absent), for a read that shows none. */
export interface ReadOptions {
  readonly personal?: false;
}

export interface Store {
  /**
   * The record at `key`, or null when there is none. With `{ personal: false }` a store that seals personal data may
   * leave those fields out (undefined) rather than open them: for reads that show none of them (a session's liveness).
   */
  get<R>(table: Table<R>, key: string, options?: ReadOptions): Promise<Stored<R> | null>;
  /** The records of one index range, in index order (reversed with `reverse`), at most `limit`; `options` as for `get`. */
  range<R>(table: Table<R>, index: string, query: RangeQuery, options?: ReadOptions): Promise<Stored<R>[]>;
  /** How many records an index holds under `prefix`, counted on the index (no record read). */
  count(table: AnyTable, index: string, prefix: readonly KeyPart[]): Promise<number>;
  commit(changes: Changes): Promise<CommitOutcome>;
  /**
   * What a value an index is looked up by (a prefix of an address) is stored as: its blind index under a store that
   * seals personal data (the same for the same value, nothing of the value without the key); absent: as it is.
   */
  readonly lookupValue?: ((value: string) => string) | undefined;
}

/** A put of `value` into `table`, conditional on the version it was read at (null: new). */
export const put = <R>(table: Table<R>, key: string, value: R, expected: Expected): Change =>
  ({ kind: 'put', table, key, value, expected });

export const remove = <R>(table: Table<R>, key: string, expected: Expected): Change => ({ kind: 'remove', table, key, expected });

export const check = <R>(table: Table<R>, key: string, expected: number | null): Change => ({ kind: 'check', table, key, expected });

/** A condition on a record's current value, checked inside the commit. */
export const expectThat = <R>(table: Table<R>, key: string, holds: (value: R | null) => boolean): Change =>
  ({ kind: 'expect', table, key, holds: holds });

const NUMBER_WIDTH = 14;
const SEPARATOR = '\u0001';
/** Above every character of a stored string, as UTF-8 bytes sort (LMDB, MongoDB). */
export const KEY_END = '\u{10FFFF}';

/**
 * An index key as one string that sorts as its parts do (numbers fixed-width hex, parts joined by U+0001 (LMDB's key encoding reads U+0000 as an array separator), which no
 * stored string holds); an index entry is the key of its parts and the record's key, so entries are unique.
 */
export const encodeIndexKey = (parts: readonly KeyPart[]): string =>
  parts.map((part) => (typeof part === 'number' ? Math.trunc(part).toString(16).padStart(NUMBER_WIDTH, '0') : part)).join(SEPARATOR);

/** The index entry of a record with these index key parts. */
export const entryOf = (parts: readonly KeyPart[], key: string): string => encodeIndexKey([...parts, key]);

/** The start of every entry a range query's prefix covers. */
export const prefixOf = (query: Pick<RangeQuery, 'prefix'>): string => (query.prefix.length === 0 ? '' : `${encodeIndexKey(query.prefix)}${SEPARATOR}`);

/** The end (exclusive) of the entries a range query covers: the prefix's end, or `below` within it. */
export const endOf = (query: Pick<RangeQuery, 'prefix' | 'below'>): string =>
  query.below === undefined ? `${prefixOf(query)}${KEY_END}` : `${prefixOf(query)}${encodeIndexKey(query.below)}`;

/** The index every table whose records expire has besides its own: when each expires (epoch ms), oldest first. */
export const EXPIRES = 'expires';

/** The names of a table's indexes, `EXPIRES` included when its records expire. */
export const indexNamesOf = (table: AnyTable): string[] => [...Object.keys(table.indexes), ...(table.expiresAt ? [EXPIRES] : [])];

/** The index entries of a record of `table` with key `key`, by index name (an index the record is not in is left out). */
export function indexEntriesOf(table: AnyTable, key: string, value: unknown): [index: string, entry: string][] {
  const at = expiryOf(table, value);
  return [
    ...Object.entries(table.indexes as Table<unknown>['indexes']).flatMap(([index, keyOf]): [string, string][] => {
      const parts = keyOf(value);
      return parts ? [[index, entryOf(parts, key)]] : [];
    }),
    ...(at === null ? [] : [[EXPIRES, entryOf([at], key)] as [string, string]]),
  ];
}

/**
 * Removes at most `limit` records of `table` that expired at or before `now`, oldest first, through its `EXPIRES`
 * index, in one commit; returns how many (0 when another writer changed one of them meanwhile: the next sweep
 * takes them). The same for every store.
 */
export async function sweepExpired(store: Store, table: AnyTable, now: number, limit: number): Promise<number> {
  const expired = await store.range(table as Table<unknown>, EXPIRES, { prefix: [], below: [now + 1], limit });
  if (expired.length === 0) return 0;
  const outcome = await store.commit({ changes: expired.map((stored) => remove(table as Table<unknown>, stored.key, stored.version)) });
  return outcome.status === 'committed' ? expired.length : 0;
}

/** When a record of `table` expires (epoch ms), or null. */
export const expiryOf = (table: AnyTable, value: unknown): number | null => (table as Table<unknown>).expiresAt?.(value) ?? null;

/**
 * `action`, run at most once per task of the event loop (an I/O callback, a timer, an immediate, with the promise jobs
 * it starts; again once they have run): a store whose reads keep a snapshot (lmdb-js keeps one until a >= 1 ms timer
 * or a commit of its own process) renews it with this before a read. A request's code runs only in tasks that began
 * after its bytes arrived, so its reads see every commit acknowledged before it was sent, by any process on the store
 * (instances on one DATA_DIR, WORKERS: issue 51), at the cost of one renewal per task that reads, not one per read.
 */
export function oncePerTask(action: () => void): () => void {
  let done = false;
  const again = () => (done = false);
  return () => {
    if (done) return;
    done = true;
    action();
    process.nextTick(again);
  };
}

/** What a refused call tells a client: the store is going away with the process, so ask again elsewhere soon. */
const RETRY_AFTER_SECONDS = 5;

const refused = <T>(): Promise<T> => Promise.reject(new ServiceUnavailable('store_unavailable', RETRY_AFTER_SECONDS));

/**
 * A store that can be closed while work is still arriving, the same way for every technology: `close` lets no new
 * read or commit through (each refused with ServiceUnavailable('store_unavailable'), a 503), waits until every commit
 * it let in has settled, and only then closes the store under it, once.
 *
 * Work does arrive during a stop: a request whose client went away has no connection to hold the HTTP server open, so
 * the server closes while its use case still runs, and the use case reaches the store after its hash. lmdb-js, read
 * or written in the moments between the start of its close and its end, throws from its own timers and can take the
 * process down (`tests/contract/storage.contract.ts`, "closes once the reads and commits it let in have settled").
 */
export class ClosingStore implements Store {
  private running = 0;
  private idle: (() => void) | undefined;
  private closing: Promise<void> | undefined;

  readonly lookupValue: ((value: string) => string) | undefined;

  constructor(
    private readonly inner: Store,
    private readonly closeInner: () => Promise<void>,
    /** The schema's projections, given to every commit that appends events. */
    private readonly projections: readonly EventProjection<unknown>[] = [],
  ) {
    this.lookupValue = inner.lookupValue && ((value) => inner.lookupValue!(value));
  }

  // A read is refused once closing but not waited for: LMDB and memory read within the call, and a MongoDB read cut
  // short by its client's close fails as a store failure (503), the same as a read of a lost connection.
  get<R>(table: Table<R>, key: string, options?: ReadOptions): Promise<Stored<R> | null> {
    return this.closing ? refused() : this.inner.get(table, key, options);
  }

  range<R>(table: Table<R>, index: string, query: RangeQuery, options?: ReadOptions): Promise<Stored<R>[]> {
    return this.closing ? refused() : this.inner.range(table, index, query, options);
  }

  count(table: AnyTable, index: string, prefix: readonly KeyPart[]): Promise<number> {
    return this.closing ? refused() : this.inner.count(table, index, prefix);
  }

  /** A commit let in is waited for by `close`: it resolves, durable, or fails as it would have. */
  commit(changes: Changes): Promise<CommitOutcome> {
    return this.admit(() => this.inner.commit(changes.events === undefined ? changes : { ...changes, projections: this.projections }));
  }

  /** Refuses new work, waits for the work let in, then closes the store under it. Idempotent. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (this.running === 0) resolve();
      else this.idle = resolve;
    }).then(() => this.closeInner());
    return this.closing;
  }

  private admit<T>(work: () => Promise<T>): Promise<T> {
    if (this.closing) return refused();
    this.running += 1;
    let started: Promise<T>;
    try {
      started = work();
    } catch (error) {
      started = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return started.finally(() => {
      this.running -= 1;
      if (this.running === 0) this.idle?.();
    });
  }
}
