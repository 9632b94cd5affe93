import type { PendingEmailChange } from '../../domain/email-change.js';
import type { EventProjection } from './projections-types.js';
import type { Table } from './store.js';

/**
 * Changes of address waiting for the new address's confirmation, one per account (a new request replaces the last):
 * kept by the projection of the change's events, in the commit that records them. Shown in the account's export.
 */
export const PENDING_EMAIL_CHANGES: Table<PendingEmailChange> = {
  name: 'pending-email-changes',
  indexes: {},
  owner: { account: 'key', credential: false, exported: ({ newEmail, requestedAt }) => ({ newEmail, requestedAt }) },
  personal: { account: (change) => change.userId, fields: ['newEmail'] },
};

/** EmailChangeRequested keeps the account's pending change; EmailChanged and EmailChangeCancelled end it. */
export const pendingEmailChanges: EventProjection<PendingEmailChange> = {
  table: PENDING_EMAIL_CHANGES,
  changeOf: (event) => {
    const userId = event.aggregateId;
    if (userId === null) return null;
    if (event.type === 'EmailChangeRequested') {
      const { newEmail, epoch } = event.payload;
      return { key: userId, next: () => ({ userId, newEmail, requestedAt: event.occurredAt, ...(epoch === undefined ? {} : { epoch }) }) };
    }
    if (event.type === 'EmailChanged' || event.type === 'EmailChangeCancelled') return { key: userId, next: () => null };
    return null;
  },
};
