/**
 * Something that happened to the domain, as plain serialisable data. Never carries a password,
 * a password hash or a token. `aggregateId` is null when no account is involved (a sign-in
 * attempt for an unknown e-mail).
 */
export interface DomainEvent<Type extends string = string, Payload extends object = object> {
  readonly type: Type;
  readonly aggregateId: string | null;
  readonly occurredAt: Date;
  readonly payload: Payload;
}

export type UserRegistered = DomainEvent<'UserRegistered', { readonly email: string }>;
export type UserSignedIn = DomainEvent<'UserSignedIn', { readonly email: string }>;
export type PasswordRehashed = DomainEvent<'PasswordRehashed', { readonly email: string }>;
export type SignInFailureReason = 'unknown_email' | 'wrong_password';
export type SignInFailed = DomainEvent<'SignInFailed', { readonly email: string; readonly reason: SignInFailureReason }>;

export type UserEvent = UserRegistered | UserSignedIn | PasswordRehashed | SignInFailed;
export type UserEventType = UserEvent['type'];

export const signInFailed = (
  email: string,
  reason: SignInFailureReason,
  aggregateId: string | null,
  occurredAt: Date,
): SignInFailed => ({ type: 'SignInFailed', aggregateId, occurredAt, payload: { email, reason } });
