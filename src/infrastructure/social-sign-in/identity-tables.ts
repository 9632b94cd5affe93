import type { IdentitySnapshot } from '../../domain/social-sign-in/identity.js';
import { identityKey } from '../../domain/social-sign-in/identity.js';
import type { Table } from '../storage/store.js';

/** A provider identity as stored: its snapshot without the version. */
export type IdentityRecord = Omit<IdentitySnapshot, 'version'>;

/**
 * The provider identities, by (issuer, subject): the key itself makes an identity one account's (a new one is put only
 * where none is, so of simultaneous links of one identity exactly one is stored). Per account by creation, for the
 * owner's list, counted per account (the cap and the last way in are decided in the commit). A way into the account: a credential, removed by a reset that first proves the address and by the erase.
 */
export const IDENTITIES: Table<IdentityRecord> = {
  name: 'identities',
  indexes: { byUser: (record) => [record.userId, record.createdAt.getTime()] },
  counted: { byUser: 1 },
  owner: {
    account: { index: 'byUser' },
    credential: true,
    signsIn: 'each',
    listed: ({ id, provider, createdAt }) => ({ kind: 'identity', id, name: provider, createdAt, lastUsedAt: null }),
    exported: ({ id, provider, email, createdAt }) => ({ id, provider, email, createdAt }),
  },
  personal: { account: (identity) => identity.userId, fields: ['email'] },
};

export const identityKeyOf = (record: Pick<IdentityRecord, 'issuer' | 'subject'>): string => identityKey(record.issuer, record.subject);
