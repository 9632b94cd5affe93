import { ACCOUNT_VIEWS } from './account-tables.js';
import { DIRECTORY } from './directory-tables.js';
import { type KeyPart, type Store, type Table, check, entryOf, put } from './store.js';

/**
 * The lengths (in characters of the lower-cased address) whose prefixes are indexed. A query of `n` characters is
 * looked up by its first `lengthFor(n)`, the longest of these not above `n`: the candidates share that much of the
 * query, and only they are opened to compare the rest.
 */
export const PREFIX_LENGTHS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32] as const;

/** One account's address in the admin search index: each indexed prefix of it as the store keeps lookup values. */
export interface AddressIndexRecord {
  readonly userId: string;
  /** When the account was listed (the directory's order), so that candidates come in the order accounts were listed. */
  readonly listedAt: number;
  /** The prefix of each of PREFIX_LENGTHS, in order (as `Store.lookupValue` stores it: a blind index when sealing); fewer for a shorter address. */
  readonly terms: readonly string[];
}

export const prefixIndexName = (length: number): string => `prefix${length}`;

const indexes = Object.fromEntries(
  PREFIX_LENGTHS.map((length, i) => [prefixIndexName(length), (record: AddressIndexRecord): KeyPart[] | null => {
    const term = record.terms[i];
    return term === undefined ? null : [term, record.listedAt];
  }]),
);

/**
 * The admin search by address prefix (`GET /admin/users?query=`): one record per listed account, by account id, whose
 * indexes answer "the accounts whose address starts with these characters" without opening any account. Holds no
 * address: each prefix is stored as its blind index (an HMAC) under a sealing store. Written with the account (its
 * sign-up, a change of address) and, for accounts listed before it existed, by `indexListedAccounts` (AddressIndexJob,
 * and a little before each search); the erase removes it.
 */
export const ADDRESS_INDEX: Table<AddressIndexRecord> = {
  name: 'address-index',
  indexes,
  owner: { account: 'key', credential: false, exported: { not: 'blind indexes of prefixes of `user.email`' } },
};

/** How far the address index has taken in the directory (one record, `INDEXED_UP_TO`): its last entry's position. */
export const ADDRESS_INDEX_PROGRESS: Table<{ readonly position: string }> = {
  name: 'address-index-progress',
  indexes: {},
  owner: { none: 'a place in the directory, the same for every account: no account\'s data' },
};

export const INDEXED_UP_TO = 'directory';

const characters = (address: string): string[] => [...address.trim().toLowerCase()];

/** The longest indexed prefix length not above the query's length (in characters); 0 for an empty query. */
export const lengthFor = (query: string): number => PREFIX_LENGTHS.filter((length) => length <= characters(query).length).at(-1) ?? 0;

/** The term a query is looked up by in `prefixIndexName(lengthFor(query))`, as the store keeps it. */
export const termOf = (store: Store, query: string): string => lookup(store, characters(query).slice(0, lengthFor(query)).join(''));

/** The index record of an account with this address. */
export const addressIndexOf = (store: Store, userId: string, listedAt: number, address: string): AddressIndexRecord => {
  const chars = characters(address);
  const terms = PREFIX_LENGTHS.filter((length) => length <= chars.length).map((length) => lookup(store, chars.slice(0, length).join('')));
  return { userId, listedAt, terms };
};

const lookup = (store: Store, prefix: string): string => store.lookupValue?.(`address-prefix\u0000${prefix}`) ?? prefix;

/**
 * Indexes the accounts listed in the directory after the last one indexed this way, at most `max` of them (each not
 * indexed yet is opened once), and moves the mark on; returns how many entries it looked at. Accounts listed before
 * the index existed get their entry here, once; later sign-ups come indexed. An account erased meanwhile gets none
 * (its view's version is checked in the commit). Safe to run from several processes at once.
 */
export async function indexListedAccounts(store: Store, max: number): Promise<number> {
  const mark = await store.get(ADDRESS_INDEX_PROGRESS, INDEXED_UP_TO);
  const after = mark?.value.position;
  const listed = await store.range(DIRECTORY, 'byListing', { prefix: [], ...(after === undefined ? {} : { after }), limit: max });
  const last = listed.at(-1);
  if (!last) return 0;
  for (const { value: { userId, listedAt } } of listed) {
    if (await store.get(ADDRESS_INDEX, userId)) continue;
    const view = await store.get(ACCOUNT_VIEWS, userId);
    if (!view || typeof view.value.email !== 'string') continue;
    await store.commit({ changes: [check(ACCOUNT_VIEWS, userId, view.version), put(ADDRESS_INDEX, userId, addressIndexOf(store, userId, listedAt, view.value.email), null)] });
  }
  await store.commit({ changes: [put(ADDRESS_INDEX_PROGRESS, INDEXED_UP_TO, { position: entryOf([last.value.listedAt], last.key) }, mark?.version ?? null)] });
  return listed.length;
}
