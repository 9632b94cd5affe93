import type { EventProjection } from './store.js';
import type { Table } from './store.js';

/** One account in the operators' directory: listed since its sign-up (or, for an older account, its next sign-in). */
export interface DirectoryEntry {
  readonly userId: string;
  readonly listedAt: number;
}

/**
 * The accounts as the admin API lists them (`GET /admin/users`), by when they were listed: kept by the projection of
 * their events, in the commits that record them; the account's erase removes its entry. Holds no personal data (the
 * address is in the account's sealed view).
 */
export const DIRECTORY: Table<DirectoryEntry> = {
  name: 'directory',
  indexes: { byListing: (entry) => [entry.listedAt] },
  owner: { account: 'key', credential: false, exported: { not: 'its one fact, the account id, is `user.id`' } },
};

/** Events that list an account not listed yet: its sign-up, or a sign-in of an account older than the directory. */
const LISTING = new Set(['UserRegistered', 'UserSignedIn', 'SessionStarted']);

export const directory: EventProjection<DirectoryEntry> = {
  table: DIRECTORY,
  on: [...LISTING, 'AccountDeleted', 'SignUpCancelled'],
  changeOf: (event) => {
    const userId = event.aggregateId;
    if (userId === null) return null;
    if (event.type === 'AccountDeleted' || event.type === 'SignUpCancelled') return { key: userId, next: () => null };
    return LISTING.has(event.type) ? { key: userId, next: (current) => current ?? { userId, listedAt: event.occurredAt.getTime() } } : null;
  },
};
