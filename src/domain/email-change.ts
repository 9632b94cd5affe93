import type { DomainEvent } from './domain-event.js';

/**
 * The owner asked to move the account to `newEmail`: a notice goes to the current address (`email`) with a link that
 * cancels the change and ends every session ("this was not me"). `binding`: the keyed fingerprint both links of the
 * change are bound to (the account, its current address and the new one), never a token.
 */
export type EmailChangeRequested = DomainEvent<
  'EmailChangeRequested',
  /** `epoch`: the account's session epoch when asked; a password change or reset moves it on, which ends the change. */
  { readonly email: string; readonly newEmail: string; readonly binding: string; readonly epoch?: number }
>;
/** The confirmation link of a change of address, mailed to the new address (`email`). */
export type NewEmailConfirmationRequested = DomainEvent<'NewEmailConfirmationRequested', { readonly email: string; readonly binding: string }>;
/** The address changed (and is proven): `email` is the new one. */
export type EmailChanged = DomainEvent<'EmailChanged', { readonly email: string; readonly previousEmail: string }>;
/**
 * A pending change ended unconfirmed: the owner of the current address cancelled it ("not me", reason absent), or a
 * password change or reset ended it with every session (`password_changed`).
 */
export type EmailChangeCancelled = DomainEvent<'EmailChangeCancelled', { readonly email: string; readonly newEmail: string; readonly reason?: 'password_changed' }>;

export type EmailChangeEvent = EmailChangeRequested | NewEmailConfirmationRequested | EmailChanged | EmailChangeCancelled;

/** A change of address waiting for the new address's confirmation (what the projection of the events keeps). */
export interface PendingEmailChange {
  readonly userId: string;
  readonly newEmail: string;
  readonly requestedAt: Date;
  /** The account's session epoch it was asked in (absent in records written before it existed). */
  readonly epoch?: number;
}

/**
 * Whether a pending change may still be confirmed or cancelled by its links: only in the session epoch it was asked
 * in. A password change, a reset or a sign-out everywhere moves the account's epoch on, and ends the change with it.
 */
export const changeStillPending = (pending: PendingEmailChange, accountEpoch: number): boolean =>
  pending.epoch === undefined || pending.epoch === accountEpoch;

/** The two mails of a requested change, in the order they are recorded: the notice to the current address, the confirmation to the new. */
export const emailChangeRequested = (userId: string, email: string, newEmail: string, binding: string, at: Date, epoch: number): [EmailChangeRequested, NewEmailConfirmationRequested] => [
  { type: 'EmailChangeRequested', aggregateId: userId, occurredAt: at, payload: { email, newEmail, binding, epoch } },
  { type: 'NewEmailConfirmationRequested', aggregateId: userId, occurredAt: at, payload: { email: newEmail, binding } },
];

export const emailChangeCancelled = (userId: string, email: string, newEmail: string, at: Date, reason?: 'password_changed'): EmailChangeCancelled =>
  ({ type: 'EmailChangeCancelled', aggregateId: userId, occurredAt: at, payload: { email, newEmail, ...(reason ? { reason } : {}) } });
