import { ACCOUNT_VIEWS, ENDED_EPOCHS, SESSIONS, UNVERIFIED_ACCOUNTS, USERS } from './account-tables.js';
import { CLAIMS, COUNTERS, INDEX_COUNTS } from './commit-plan.js';
import { EVENTS, OUTBOX } from './event-tables.js';
import { MFA_CHALLENGES, TOTP_FACTORS } from './factor-tables.js';
import { PASSKEYS, WEBAUTHN_CHALLENGES } from './passkey-tables.js';
import { type AnyTable, type Change, type Ownership, type Store, type Table, remove } from './store.js';

/**
 * Every table the service stores, once: what the account's erase, "remove every credential" and the expiry sweep walk
 * (a new kind of state is a line here, and its declaration says whose records it holds: `Table.owner`).
 */
export const TABLES: readonly AnyTable[] = [
  USERS, ACCOUNT_VIEWS, UNVERIFIED_ACCOUNTS, SESSIONS, ENDED_EPOCHS,
  TOTP_FACTORS, MFA_CHALLENGES, PASSKEYS, WEBAUTHN_CHALLENGES,
  EVENTS, OUTBOX,
  CLAIMS, COUNTERS, INDEX_COUNTS,
];

/** The tables whose records are a way into an account (`owner.credential`): a factor, a passkey; later identities and keys. */
export const CREDENTIAL_TABLES: readonly AnyTable[] = TABLES.filter((table) => 'account' in table.owner && 'credential' in table.owner && table.owner.credential);

/**
 * Every table whose records expire, but the sessions (the session sweep removes those, with the sessions of ended
 * epochs): the expiry sweep walks each.
 */
export const EXPIRING_TABLES: readonly AnyTable[] = TABLES.filter((table) => table.expiresAt !== undefined && !isEpochOwned(table.owner));

function isEpochOwned(owner: Ownership): boolean {
  return 'account' in owner && owner.account === 'epoch';
}

/** The most records of one account one table may hold that a removal reads in one go (events included). */
const ALL = Number.MAX_SAFE_INTEGER;

/**
 * The removal of every record of `userId` in `tables` (each at the version read, so a record changed meanwhile refuses
 * the commit), found as each table's `owner` says: by key, through its index, or beside the account's records of
 * another table (an outbox entry beside each of its events). Tables owned by epoch or as a marker are left to the
 * caller (the erase moves the epoch on). `kept`: keys of `beside` tables not to remove (events just appended).
 */
export async function removalsOf(store: Store, userId: string, tables: readonly AnyTable[], kept: ReadonlySet<string> = new Set()): Promise<Change[]> {
  const keysByTable = new Map<AnyTable, string[]>();
  const changes: Change[] = [];
  const ordered = [...tables].sort((a, b) => rank(a.owner) - rank(b.owner));
  for (const table of ordered) {
    const { owner } = table;
    if (!('account' in owner) || owner.account === 'epoch' || owner.account === 'marker') continue;
    const typed = table as Table<unknown>;
    if (owner.account === 'key') {
      changes.push(remove(typed, userId, 'any'));
      keysByTable.set(table, [userId]);
    } else if ('index' in owner.account) {
      const found = (await store.range(typed, owner.account.index, { prefix: [userId], limit: ALL })).filter((stored) => !kept.has(stored.key));
      changes.push(...found.map((stored) => remove(typed, stored.key, stored.version)));
      keysByTable.set(table, found.map((stored) => stored.key));
    } else {
      const beside = await Promise.all((keysByTable.get(owner.account.beside) ?? []).map((key) => store.get(typed, key)));
      changes.push(...beside.flatMap((stored) => (stored ? [remove(typed, stored.key, stored.version)] : [])));
    }
  }
  return changes;
}

/** Tables found beside another come after it. */
const rank = (owner: Ownership): number => ('account' in owner && typeof owner.account === 'object' && 'beside' in owner.account ? 1 : 0);
