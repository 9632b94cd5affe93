import { EMAIL_CHANGE_REVERT_SECONDS, type EmailChangeEvent, type PendingEmailChange, type RevertibleEmailChange } from '../../domain/email-change/email-change.js';
import type { EmailChangeReverted, EmailChanged } from '../../domain/user.js';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';

/** What the projections read (their `on`): the change of address's own events and the account's change and revert. */
const seen = (event: RecordedEvent): EmailChangeEvent | EmailChanged | EmailChangeReverted => event as unknown as EmailChangeEvent | EmailChanged | EmailChangeReverted;
import type { EventProjection } from '../storage/store.js';
import type { Table } from '../storage/store.js';

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

/** EmailChangeRequested keeps the account's pending change; EmailChanged, EmailChangeCancelled and EmailChangeReverted end it. */
export const pendingEmailChanges: EventProjection<PendingEmailChange> = {
  table: PENDING_EMAIL_CHANGES,
  on: ['EmailChangeRequested', 'EmailChanged', 'EmailChangeCancelled', 'EmailChangeReverted'],
  changeOf: (recorded) => {
    const event = seen(recorded);
    const userId = event.aggregateId;
    if (userId === null) return null;
    if (event.type === 'EmailChangeRequested') {
      const { newEmail, epoch } = event.payload;
      return { key: userId, next: () => ({ userId, newEmail, requestedAt: event.occurredAt, ...(epoch === undefined ? {} : { epoch }) }) };
    }
    if (event.type === 'EmailChanged' || event.type === 'EmailChangeCancelled' || event.type === 'EmailChangeReverted') return { key: userId, next: () => null };
    return null;
  },
};

/**
 * The account's last confirmed change of address, which the previous address may revert with the link mailed to it,
 * for EMAIL_CHANGE_REVERT_SECONDS (then the sweep removes it). Shown in the account's export.
 */
export const REVERTIBLE_EMAIL_CHANGES: Table<RevertibleEmailChange> = {
  name: 'revertible-email-changes',
  indexes: {},
  expiresAt: (change) => change.changedAt.getTime() + EMAIL_CHANGE_REVERT_SECONDS * 1000,
  owner: { account: 'key', credential: false, exported: ({ email, previousEmail, changedAt }) => ({ email, previousEmail, changedAt }) },
  personal: { account: (change) => change.userId, fields: ['email', 'previousEmail'] },
};

/** EmailChanged keeps the account's revertible change (a new one replaces it); EmailChangeReverted ends it. */
export const revertibleEmailChanges: EventProjection<RevertibleEmailChange> = {
  table: REVERTIBLE_EMAIL_CHANGES,
  on: ['EmailChanged', 'EmailChangeReverted'],
  changeOf: (event) => {
    const userId = event.aggregateId;
    if (userId === null) return null;
    if (event.type === 'EmailChanged') {
      const { email, previousEmail } = event.payload;
      return { key: userId, next: () => ({ userId, email, previousEmail, changedAt: event.occurredAt }) };
    }
    return event.type === 'EmailChangeReverted' ? { key: userId, next: () => null } : null;
  },
};
