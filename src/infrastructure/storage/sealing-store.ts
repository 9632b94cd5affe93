import type { PersonalDataKeys } from '../security/personal-data-keys.js';
import { CLAIMS, COUNTERS, claimKey } from './commit-plan.js';
import { type AnyTable, type Change, type Changes, type CommitOutcome, type Count, type KeyPart, type RangeQuery, type ReadOptions, type Store, type Stored, type Table, check, put } from './store.js';

/** One account's data key, wrapped under the key-encryption key (never in clear). */
export interface DataKeyRecord {
  readonly wrapped: string;
}

/**
 * The accounts' data keys, by account id: made with the account's first sealed record, removed by its erase (and with
 * it every sealed field of the account, wherever a copy of it lies: crypto-shredding).
 */
export const DATA_KEYS: Table<DataKeyRecord> = {
  name: 'data-keys',
  indexes: {},
  owner: { account: 'key', credential: false, exported: { not: 'a key, never shown: the erase destroys it' } },
};

/** The fingerprint of the personal-data key this store's data is sealed under (one record, `KEY_CHECK_ID`). */
export interface KeyCheckRecord {
  readonly fingerprint: string;
}

/** One record: which personal-data key the store's personal data is sealed under, so that no process writes under another. */
export const KEY_CHECK: Table<KeyCheckRecord> = {
  name: 'key-check',
  indexes: {},
  owner: { none: 'a one-way fingerprint of PERSONAL_DATA_KEY, the same for every account: no account\'s data' },
};

export const KEY_CHECK_ID = 'personal-data-key';

/** A process whose PERSONAL_DATA_KEY is not the one the store's personal data is sealed under: it must not start. */
export class PersonalDataKeyMismatch extends Error {
  constructor() {
    super(
      'PERSONAL_DATA_KEY is not the key this store\'s personal data is sealed under (another instance, or an earlier start, used another): ' +
        'give every instance the same key, the one this DATA_DIR or database was first started with (docs/security.md, "A production personal-data key"); ' +
        'a process with another one would write what no other can read. A new key (openssl rand -base64 48) is only for an empty store',
    );
    this.name = 'PersonalDataKeyMismatch';
  }
}

/** Where a sealed record keeps its sealed fields: `a.<base64>` under its account's data key, `s.<base64>` under the service's. */
const SEALED = '_sealed';

/** True for a record as stored (read with `{ personal: false }`) whose personal fields are sealed; false for one stored in clear. */
export const isSealedAtRest = (value: unknown): boolean => typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[SEALED] === 'string';

/**
 * What the sealing store knows of accounts, given by the storage's wiring (storage.ts) rather than imported: the table
 * whose record is an account (a first put of it makes the account's data key; a record of an account that has none
 * and is not in it is sealed under the service's key), and a listing of accounts by id (the check of a store sealed
 * before the key's fingerprint existed opens one of their data keys).
 */
export interface SealedAccounts {
  readonly accounts: AnyTable;
  readonly listing: { readonly table: AnyTable; readonly index: string; readonly accountOf: (record: unknown) => string };
}

/** Data keys kept in memory at most, per process (a data key is never changed, only made or destroyed). */
const CACHED_KEYS = 10_000;

/**
 * Opened fields kept in memory at most, per process, by the sealed value they came from (unique to one write: its IV):
 * a record read again at the same version (a session and its account, on every bearer request) is not decrypted again.
 * Never for a table whose records outlive their key, and only while the account's key is still known here.
 */
const CACHED_OPENINGS = 20_000;

/** What a record of `table` is bound to when sealed: its table and its account (`-` for the service's key). */
const associatedOf = (table: AnyTable, account: string | null): string => `${table.name}\u0000${account ?? '-'}`;

/**
 * A store that keeps personal data sealed at rest, over any technology's store (storage.ts puts it under every port):
 * - The fields each table declares `personal` are written as one sealed value under the data key of their account
 *   (PersonalDataKeys); reads open it again. A record whose account's key is gone reads with those fields null.
 * - Every claimed value (an address), every counter's key (they name addresses) and every lookup value (the prefixes
 *   of an address the admin search finds it by) is stored as its blind index.
 * - A commit that seals an account's record holds only while the account's data key is still the one it used
 *   (a check in the same commit), so a write racing the erase is refused rather than sealed under a destroyed key.
 * Claims written before sealing existed (in clear) are still honoured: a claim of a value held that way by another
 * owner is refused, and a release releases both forms.
 */
export class SealingStore implements Store {
  private readonly cached = new Map<string, Buffer>();
  /** Opened records by the sealed value they were read from (unique to one write), frozen: CACHED_OPENINGS at most. */
  private readonly openings = new Map<string, Readonly<Record<string, unknown>>>();

  constructor(
    private readonly inner: Store,
    private readonly keys: PersonalDataKeys,
    private readonly known: SealedAccounts,
  ) {}

  /** A lookup value (a prefix of an address: address-index.ts) as stored: its blind index. */
  readonly lookupValue = (value: string): string => this.keys.blind(value);

  get<R>(table: Table<R>, key: string, options?: ReadOptions): Promise<Stored<R> | null> {
    if (table === (COUNTERS as AnyTable)) return this.inner.get(table, this.counterKey(key));
    if (table === (CLAIMS as AnyTable)) return this.claimOf(table, key);
    if (!table.personal) return this.inner.get(table, key);
    return this.inner.get(table, key).then((stored) => {
      if (!stored) return null;
      // Left sealed, as stored: its personal fields are absent, nothing is decrypted or copied.
      if (options?.personal === false) return stored;
      return this.openedNow(table, stored) ?? this.opened(table, [stored]).then((opened) => opened[0]!);
    });
  }

  /** A claim as stored now (its blind index), or as written before sealing (in clear). */
  private async claimOf<R>(table: Table<R>, key: string): Promise<Stored<R> | null> {
    return (await this.inner.get(table, this.claimedKey(key))) ?? this.inner.get(table, key);
  }

  /**
   * A record opened without waiting, when its account's data key is in this process's memory and the very write it
   * came from was opened here before (a session's account read again at the same version: every bearer request): the
   * value kept then, shared and frozen (the sealed value is unique to one write, so it names the whole record).
   */
  private openedNow<R>(table: Table<R>, entry: Stored<R>): Stored<R> | undefined {
    const { personal } = table;
    const sealed = (entry.value as Record<string, unknown>)[SEALED];
    if (!personal || personal.outlivesKey || typeof sealed !== 'string') return undefined;
    const value = this.openings.get(sealed);
    if (value === undefined) return undefined;
    const account = sealed.startsWith('a.') ? personal.account(entry.value, entry.key) : null;
    return account === null || this.cached.has(account) ? { ...entry, value: value as R } : undefined;
  }

  async range<R>(table: Table<R>, index: string, query: RangeQuery, options?: ReadOptions): Promise<Stored<R>[]> {
    const found = await this.inner.range(table, index, query);
    return options?.personal === false ? found : this.opened(table, found);
  }

  count(table: AnyTable, index: string, prefix: readonly KeyPart[]): Promise<number> {
    return this.inner.count(table, index, prefix);
  }

  async commit(changes: Changes): Promise<CommitOutcome> {
    const legacy = await this.legacyClaimHolder(changes);
    if (legacy) return { status: 'taken', claim: legacy };
    const erased = new Set((changes.changes ?? []).filter((change) => change.table === (DATA_KEYS as AnyTable) && change.kind === 'remove').map((change) => change.key));
    const accounts = [...accountsOf(changes)].filter((account) => !erased.has(account));
    const first = await this.commitSealed(changes, accounts, erased);
    if (first.outcome.status !== 'conflict' || first.made.length === 0) return first.outcome;
    // Two first writes of one account each made its data key: the one refused decides again, once, with the key kept.
    for (const account of first.made) if (!(await this.dataKeyOf(account, false))) return first.outcome;
    return (await this.commitSealed(changes, accounts, erased)).outcome;
  }

  private async commitSealed(changes: Changes, accounts: readonly string[], erased: ReadonlySet<string>): Promise<{ outcome: CommitOutcome; made: string[] }> {
    const dataKeys = new Map<string, Buffer>();
    const guards: Change[] = [];
    const made: string[] = [];
    const { accounts: accountTable } = this.known;
    const creates = new Set((changes.changes ?? []).filter((change) => change.table === accountTable && change.kind === 'put' && change.expected === null).map((change) => change.key));
    for (const account of accounts) {
      const found = await this.dataKeyOf(account, true);
      if (found) {
        guards.push(check(DATA_KEYS, account, found.version));
        dataKeys.set(account, found.key);
        continue;
      }
      // No key and no account (erased, or never one): sealed under the service's key; no key is made for it.
      if (!creates.has(account) && !(await this.inner.get(accountTable, account))) continue;
      const fresh = this.keys.newDataKey(account);
      guards.push(put(DATA_KEYS, account, { wrapped: fresh.wrapped }, null));
      dataKeys.set(account, fresh.key);
      made.push(account);
    }
    const counters = new Map<string, string>();
    const counted = (count: Count): Count => {
      const key = this.counterKey(count.key);
      counters.set(key, count.key);
      return { ...count, key };
    };
    const outcome = await this.inner.commit({
      ...changes,
      changes: [...(changes.changes ?? []), ...guards],
      claims: (changes.claims ?? []).map((claim) => ({ ...claim, value: this.keys.blind(claim.value) })),
      releases: (changes.releases ?? []).flatMap((release) => [{ ...release, value: this.keys.blind(release.value) }, release]),
      counts: (changes.counts ?? []).map(counted),
      below: (changes.below ?? []).map(counted),
      clears: (changes.clears ?? []).map((key) => this.counterKey(key)),
      seal: (table, key, value) => this.sealed(table, key, value, dataKeys),
    });
    for (const account of erased) this.cached.delete(account);
    if (erased.size > 0) this.openings.clear();
    if (outcome.status === 'committed') for (const account of made) this.remember(account, dataKeys.get(account)!);
    if (outcome.status === 'conflict') for (const account of dataKeys.keys()) this.cached.delete(account);
    return { outcome: outcome.status === 'limited' ? { ...outcome, key: counters.get(outcome.key) ?? outcome.key } : outcome, made };
  }

  /** The record as stored: its personal fields sealed under its account's data key (the service's where it has none). */
  private sealed(table: AnyTable, key: string, value: unknown, dataKeys: ReadonlyMap<string, Buffer>): unknown {
    const personal = (table as Table<unknown>).personal;
    if (!personal || typeof value !== 'object' || value === null) return value;
    const record = value as Record<string, unknown>;
    const owner = personal.account(value, key);
    const dataKey = owner === null ? undefined : dataKeys.get(owner);
    // An account erased in this commit: what it still records (AccountDeleted, its notice) is sealed under the service's key.
    const account = dataKey === undefined ? null : owner;
    const fields = Object.fromEntries(personal.fields.map((field) => [field, record[field]]));
    const clear = Object.fromEntries(Object.entries(record).filter(([field]) => !(personal.fields as readonly string[]).includes(field)));
    const sealed = this.keys.seal(dataKey ?? this.keys.serviceKey, associatedOf(table, account), fields);
    return { ...clear, [SEALED]: `${account === null ? 's' : 'a'}.${sealed}` };
  }

  /** Each record with its personal fields opened (null where its account's key is gone); records stored in clear as they are. */
  private async opened<R>(table: Table<R>, stored: Stored<R>[]): Promise<Stored<R>[]> {
    const { personal } = table;
    if (!personal) return stored;
    return Promise.all(
      stored.map(async (entry) => {
        const record = entry.value as Record<string, unknown>;
        const sealed = record[SEALED];
        if (typeof sealed !== 'string') return entry;
        const account = sealed.startsWith('a.') ? personal.account(entry.value, entry.key) : null;
        const reusable = !personal.outlivesKey;
        const dataKey = account === null ? this.keys.serviceKey : (await this.dataKeyOf(account, reusable))?.key;
        const known = reusable && dataKey !== undefined ? this.openings.get(sealed) : undefined;
        if (known) return { ...entry, value: known as R };
        const fields = dataKey === undefined ? null : this.keys.open(dataKey, associatedOf(table, account), sealed.slice(2));
        const { [SEALED]: _sealed, ...clear } = record;
        const value = { ...clear, ...(fields ?? Object.fromEntries(personal.fields.map((field) => [field, null]))) };
        if (reusable && fields) this.keepOpening(sealed, Object.freeze(value));
        return { ...entry, value: value as R };
      }),
    );
  }

  /**
   * Refuses a key other than the one the store's data is sealed under (PersonalDataKeyMismatch), before anything is
   * served: the store keeps the key's fingerprint, written by the first process that seals into it. A store sealed
   * before the fingerprint existed is checked once against an account's data key (found through the directory), and
   * then given the fingerprint.
   */
  async verifyKey(): Promise<void> {
    for (let tries = 0; tries < 3; tries += 1) {
      const stored = await this.inner.get(KEY_CHECK, KEY_CHECK_ID);
      if (stored) {
        if (stored.value.fingerprint !== this.keys.fingerprint) throw new PersonalDataKeyMismatch();
        return;
      }
      if (!(await this.opensAnAccount())) throw new PersonalDataKeyMismatch();
      const outcome = await this.inner.commit({ changes: [put(KEY_CHECK, KEY_CHECK_ID, { fingerprint: this.keys.fingerprint }, null)] });
      if (outcome.status === 'committed') return;
    }
    throw new Error('the personal-data key check could not be written: the store changed under it three times');
  }

  /** Whether this key opens the data key of a listed account that still has one (true when none has). */
  private async opensAnAccount(): Promise<boolean> {
    const { table, index, accountOf } = this.known.listing;
    for (const { value } of await this.inner.range(table as Table<unknown>, index, { prefix: [], limit: 20 })) {
      const account = accountOf(value);
      const stored = await this.inner.get(DATA_KEYS, account);
      if (stored) return this.keys.unwrap(account, stored.value.wrapped) !== null;
    }
    return true;
  }

  /** The account's data key and the version of its record; null when it has none (never made, or destroyed). */
  private async dataKeyOf(account: string, cached: boolean): Promise<{ key: Buffer; version: number } | null> {
    const known = cached ? this.cached.get(account) : undefined;
    if (known) return { key: known, version: 0 };
    const stored = await this.inner.get(DATA_KEYS, account);
    const key = stored && this.keys.unwrap(account, stored.value.wrapped);
    if (!stored || !key) return null;
    this.remember(account, key);
    return { key, version: stored.version };
  }

  private keepOpening(sealed: string, value: Readonly<Record<string, unknown>>): void {
    if (this.openings.size >= CACHED_OPENINGS) this.openings.clear();
    this.openings.set(sealed, value);
  }

  private remember(account: string, key: Buffer): void {
    if (this.cached.size >= CACHED_KEYS) this.cached.clear();
    this.cached.set(account, key);
  }

  /** The name of the first claim whose value another owner holds in clear (a claim written before sealing), if any. */
  private async legacyClaimHolder(changes: Changes): Promise<string | null> {
    for (const claim of changes.claims ?? []) {
      const held = await this.inner.get(CLAIMS, claimKey(claim.name, claim.value));
      if (held && held.value.owner !== claim.owner) return claim.name;
    }
    return null;
  }

  private counterKey(key: string): string {
    return `b:${this.keys.blind(key)}`;
  }

  /** A claim's key (`<name>:<value>`) with its value blind. */
  private claimedKey(key: string): string {
    const at = key.indexOf(':');
    return claimKey(key.slice(0, at), this.keys.blind(key.slice(at + 1)));
  }
}

/** The accounts whose data keys a commit's sealed records need: those its puts and events name. */
function accountsOf(changes: Changes): Set<string> {
  const accounts = new Set<string>();
  for (const change of changes.changes ?? []) {
    const personal = (change.table as Table<unknown>).personal;
    const account = change.kind === 'put' && personal ? personal.account(change.value, change.key) : null;
    if (account !== null) accounts.add(account);
  }
  for (const event of changes.events ?? []) if (event.aggregateId !== null) accounts.add(event.aggregateId);
  return accounts;
}
