import type { DomainEvent } from './domain-event.js';

/**
 * Events that ask for a mail; the event log is the outbox. Each carries what the mail needs and nothing secret:
 * `binding` is a keyed fingerprint of the state a one-time token is bound to (made by the application's token port),
 * from which the dispatcher, holding the key, derives the token again. The log never holds a token.
 */
export type EmailVerificationRequested = DomainEvent<'EmailVerificationRequested', { readonly email: string; readonly binding: string }>;
/** `aggregateId` and `binding` are null for an address with no account: recorded for the throttle, no mail sent. */
export type PasswordResetRequested = DomainEvent<'PasswordResetRequested', { readonly email: string; readonly binding: string | null }>;
export type EmailVerified = DomainEvent<'EmailVerified', { readonly email: string }>;
/** The password was reset by a link: a notice mail goes to the address. */
export type PasswordReset = DomainEvent<'PasswordReset', { readonly email: string }>;

export type MailEvent = EmailVerificationRequested | PasswordResetRequested | EmailVerified | PasswordReset;

/**
 * The event types that send a mail (when they concern an account): the links, and a notice after every password
 * change, by reset or by its owner (PasswordChanged, recorded by the User aggregate), so a stolen session or password
 * cannot change it unnoticed.
 */
export const MAIL_EVENT_TYPES: ReadonlySet<string> = new Set([
  'EmailVerificationRequested', 'PasswordResetRequested', 'PasswordReset', 'PasswordChanged',
  // The account taken back by a reset that first proved its address: every way in from before it removed.
  'CredentialsRemoved',
  // A change of address confirmed: the notice, with its revert link, to the previous address (the change of address
  // declares it: src/application/email-change/events.ts; the request's two mails are its own events').
  'EmailChanged',
  // A sign-in from a device the account has not used recently.
  'NewDeviceSignedIn',
  // The account deleted: the notice to the address it had (sent although the account is gone).
  'AccountDeletionNoticed',
]);

export const passwordResetRequested = (email: string, aggregateId: string | null, binding: string | null, occurredAt: Date): PasswordResetRequested => ({
  type: 'PasswordResetRequested',
  aggregateId,
  occurredAt,
  payload: { email, binding },
});
