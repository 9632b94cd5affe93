import type { DomainEvent } from './domain-event.js';

/**
 * The owner asked to move the account to `newEmail`: a notice goes to the current address (`email`) with a link that
 * cancels the change and ends every session ("this was not me"). `binding`: the keyed fingerprint both links of the
 * change are bound to (the account, its current address and the new one), never a token.
 */
export type EmailChangeRequested = DomainEvent<'EmailChangeRequested', { readonly email: string; readonly newEmail: string; readonly binding: string }>;
/** The confirmation link of a change of address, mailed to the new address (`email`). */
export type NewEmailConfirmationRequested = DomainEvent<'NewEmailConfirmationRequested', { readonly email: string; readonly binding: string }>;
/** The address changed (and is proven): `email` is the new one. */
export type EmailChanged = DomainEvent<'EmailChanged', { readonly email: string; readonly previousEmail: string }>;
/** The owner of the current address cancelled a change they did not ask for. */
export type EmailChangeCancelled = DomainEvent<'EmailChangeCancelled', { readonly email: string; readonly newEmail: string }>;

export type EmailChangeEvent = EmailChangeRequested | NewEmailConfirmationRequested | EmailChanged | EmailChangeCancelled;

/** A change of address waiting for the new address's confirmation (what the projection of the events keeps). */
export interface PendingEmailChange {
  readonly userId: string;
  readonly newEmail: string;
  readonly requestedAt: Date;
}

/** The two mails of a requested change, in the order they are recorded: the notice to the current address, the confirmation to the new. */
export const emailChangeRequested = (userId: string, email: string, newEmail: string, binding: string, at: Date): [EmailChangeRequested, NewEmailConfirmationRequested] => [
  { type: 'EmailChangeRequested', aggregateId: userId, occurredAt: at, payload: { email, newEmail, binding } },
  { type: 'NewEmailConfirmationRequested', aggregateId: userId, occurredAt: at, payload: { email: newEmail, binding } },
];

export const emailChangeCancelled = (userId: string, email: string, newEmail: string, at: Date): EmailChangeCancelled =>
  ({ type: 'EmailChangeCancelled', aggregateId: userId, occurredAt: at, payload: { email, newEmail } });
