import { ACCOUNT_VIEWS, ENDED_EPOCHS, SESSIONS, UNVERIFIED_ACCOUNTS, USERS } from './account-tables.js';
import { CLAIMS, COUNTERS, INDEX_COUNTS } from './commit-plan.js';
import { EVENTS, OUTBOX } from './event-tables.js';
import { DATA_KEYS, KEY_CHECK, isSealedAtRest } from './sealing-store.js';
import { DIRECTORY } from './directory-tables.js';
import { ADDRESS_INDEX, ADDRESS_INDEX_PROGRESS } from './address-index.js';
import { PROJECTIONS } from './projections.js';
import type { EventProjection } from './store.js';
import type { CredentialView } from '../../application/ports/user-read-model.port.js';
import { type AnyTable, type Change, type Ownership, type ReadOptions, type Store, type Stored, type Table, type Tally, remove } from './store.js';

/**
 * Every table the service stores, once: what the account's erase, "remove every credential" and the expiry sweep walk
 * (a new kind of state of the core is a line here, a capability's is in its manifest; each declaration says whose
 * records it holds: `Table.owner`).
 */
export const TABLES: readonly AnyTable[] = [
  USERS, ACCOUNT_VIEWS, UNVERIFIED_ACCOUNTS, SESSIONS, ENDED_EPOCHS,
  EVENTS, OUTBOX, DATA_KEYS, KEY_CHECK, DIRECTORY, ADDRESS_INDEX, ADDRESS_INDEX_PROGRESS,
  CLAIMS, COUNTERS, INDEX_COUNTS,
];

/**
 * The tables of one composition: the core's (TABLES) and every capability's (their manifests' `tables`), with what is
 * decided from their declarations: which hold ways in, which expire, what the erase removes and the export shows.
 * The storage ports and the sweeps read it, never a list of their own (`schemaOf`).
 */
export class Schema {
  /** The tables whose records are a way into an account (`owner.credential`): a factor, a passkey, an identity, a one-time code; later keys. */
  readonly credentialTables: readonly AnyTable[];
  /** Every table whose records expire, but the sessions (the session sweep removes those, with the sessions of ended epochs): the expiry sweep walks each. */
  readonly expiringTables: readonly AnyTable[];

  constructor(
    readonly tables: readonly AnyTable[],
    /** What the appended events make of the tables kept beside the log: the core's and the capabilities'. */
    readonly projections: readonly EventProjection<unknown>[] = PROJECTIONS,
  ) {
    const names = new Set<string>();
    for (const { name } of tables) {
      if (names.has(name)) throw new Error(`Two tables are named ${name}: a capability's table needs a name of its own`);
      names.add(name);
    }
    this.credentialTables = tables.filter((table) => 'account' in table.owner && 'credential' in table.owner && table.owner.credential);
    this.expiringTables = tables.filter((table) => table.expiresAt !== undefined && !isEpochOwned(table.owner));
  }

  /**
   * The ways into account `userId` (its first factors: a password, passkeys, provider identities), summed as each table
   * declares them (`owner.signsIn`): the account's counted index range, or the weight of its one record. A commit bound by
   * it leaves at least `min`, decided inside the commit (a new first-factor table is one declaration).
   */
  waysInto(userId: string, min = 1): Tally {
    const tally: { ranges: Tally['ranges'][number][]; records: Tally['records'][number][]; min: number } = { ranges: [], records: [], min };
    for (const table of this.tables) {
      const owner = table.owner as Ownership<unknown>;
      if (!('signsIn' in owner) || owner.signsIn === undefined) continue;
      const { signsIn, account } = owner;
      if (signsIn === 'each' && typeof account === 'object') tally.ranges.push({ table, index: account.index, prefix: [userId] });
      else if (typeof signsIn === 'function' && account === 'key') tally.records.push({ table, key: userId, weight: (value: unknown) => (value !== null && signsIn(value) ? 1 : 0) });
      else throw new Error(`${table.name}: signsIn 'each' goes with an index, a function with records keyed by the account`);
    }
    return tally;
  }

  /**
   * Every way into account `userId` as its list shows it: for every table whose owner says how (`listed`), its records
   * of the account, each marked as a first factor as the table declares it (`signsIn`, the same the last-way-in rule
   * sums). A record its declaration does not list (a factor not confirmed, an account's empty password) is left out.
   */
  async credentialsOf(store: Store, userId: string): Promise<CredentialView[]> {
    const listed: CredentialView[] = [];
    for (const table of this.tables) {
      const owner = table.owner as Ownership<unknown>;
      if (!('listed' in owner) || owner.listed === undefined) continue;
      const { listed: show, signsIn } = owner;
      for (const { value } of await ownedBy(store, userId, table)) {
        const credential = value === null ? null : show(value);
        if (credential) listed.push({ ...credential, signsIn: signsIn === 'each' || (typeof signsIn === 'function' && signsIn(value)) });
      }
    }
    return listed;
  }

  /**
   * What the account's export shows of its records beyond its resource, sessions and activity: for every table whose
   * owner says how (`exported` as a function), the account's records as it shows them, by table name (an empty list
   * for none). Never a secret: each declaration picks what it shows.
   */
  async exportedRecordsOf(store: Store, userId: string): Promise<Record<string, Readonly<Record<string, unknown>>[]>> {
    const exported: Record<string, Readonly<Record<string, unknown>>[]> = {};
    for (const table of this.tables) {
      const { owner } = table;
      if (!('exported' in owner) || typeof owner.exported !== 'function') continue;
      const show = owner.exported as (record: unknown) => Readonly<Record<string, unknown>>;
      exported[table.name] = (await ownedBy(store, userId, table)).flatMap((stored) => (stored.value === null ? [] : [show(stored.value)]));
    }
    return exported;
  }
}

/** The schema of the core's tables and the given capabilities' (each manifest's `tables`). */
export const schemaOf = (capabilities: readonly { readonly tables: readonly AnyTable[]; readonly projections?: readonly EventProjection<unknown>[] }[] = []): Schema =>
  new Schema([...TABLES, ...capabilities.flatMap((capability) => capability.tables)], [...PROJECTIONS, ...capabilities.flatMap((capability) => capability.projections ?? [])]);

/** The core's tables alone: a storage opened without a composition's schema (the tools' and the tests'). */
export const CORE_SCHEMA = schemaOf();

function isEpochOwned(owner: Ownership): boolean {
  return 'account' in owner && owner.account === 'epoch';
}

const AS_STORED = { personal: false } as const;

/** The most records of one account one table may hold that a read of them takes in one go (events included). */
const ALL = Number.MAX_SAFE_INTEGER;

/** The records of `userId` in one table, found as its owner says (by key, or through its index); none for other owners. */
async function ownedBy(store: Store, userId: string, table: AnyTable, options?: ReadOptions): Promise<Stored<unknown>[]> {
  const { owner } = table;
  const typed = table as Table<unknown>;
  if (!('account' in owner) || typeof owner.account !== 'object' && owner.account !== 'key') return [];
  if (owner.account === 'key') return [(await store.get(typed, userId, options)) ?? { key: userId, value: null, version: -1 }];
  if (!('index' in owner.account)) return [];
  return store.range(typed, owner.account.index, { prefix: [userId], limit: ALL }, options);
}

/**
 * The removal of every record of `userId` in `tables` (each at the version read, so a record changed meanwhile refuses
 * the commit), found as each table's `owner` says: by key, through its index, or beside the account's records of
 * another table (an outbox entry beside each of its events). A table whose records outlive the account shredded (the
 * event log) keeps them: only those stored in clear are removed. Tables owned by epoch or as a marker are left to the
 * caller (the erase moves the epoch on). `kept`: keys not to remove (events just appended).
 */
export async function removalsOf(store: Store, userId: string, tables: readonly AnyTable[], kept: ReadonlySet<string> = new Set()): Promise<Change[]> {
  const keysByTable = new Map<AnyTable, string[]>();
  const changes: Change[] = [];
  for (const table of [...tables].sort((a, b) => rank(a.owner) - rank(b.owner))) {
    const { owner } = table;
    const typed = table as Table<unknown>;
    if ('account' in owner && typeof owner.account === 'object' && 'beside' in owner.account) {
      const beside = await Promise.all((keysByTable.get(owner.account.beside) ?? []).map((key) => store.get(typed, key)));
      changes.push(...beside.flatMap((stored) => (stored ? [remove(typed, stored.key, stored.version)] : [])));
      continue;
    }
    // As stored (nothing opened): what is removed needs its key, its version, and whether it is sealed at rest.
    const found = (await ownedBy(store, userId, table, AS_STORED)).filter((stored) => !kept.has(stored.key));
    const removed = 'shredded' in owner && owner.shredded ? found.filter((stored) => !isSealedAtRest(stored.value)) : found;
    changes.push(...removed.map((stored) => remove(typed, stored.key, stored.version < 0 ? 'any' : stored.version)));
    keysByTable.set(table, found.map((stored) => stored.key));
  }
  return changes;
}

/** Tables found beside another come after it. */
const rank = (owner: Ownership): number => ('account' in owner && typeof owner.account === 'object' && 'beside' in owner.account ? 1 : 0);
