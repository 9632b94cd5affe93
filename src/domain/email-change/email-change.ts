import type { DomainEvent } from '../domain-event.js';

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
/**
 * A pending change ended unconfirmed: the owner of the current address cancelled it ("not me", reason absent), or a
 * password change or reset ended it with every session (`password_changed`).
 */
export type EmailChangeCancelled = DomainEvent<'EmailChangeCancelled', { readonly email: string; readonly newEmail: string; readonly reason?: 'password_changed' }>;

/** The change of address's own events (the address's change and its revert are the account's: EmailChanged, EmailChangeReverted). */
export type EmailChangeEvent = EmailChangeRequested | NewEmailConfirmationRequested | EmailChangeCancelled;

/** How long the previous address may take the account back after a change of address: 7 days. */
export const EMAIL_CHANGE_REVERT_SECONDS = 7 * 24 * 3600;

/** A confirmed change of address the previous address may still revert (what the projection of EmailChanged keeps). */
export interface RevertibleEmailChange {
  readonly userId: string;
  /** The address the change moved the account to. */
  readonly email: string;
  readonly previousEmail: string;
  /** When it changed: the revert link's token is issued at this very time. */
  readonly changedAt: Date;
}

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
