import type { FieldIssue } from '../domain/domain-error.js';

/**
 * Every code an application-level failure can carry (the domain's own are `DomainErrorCode`). The HTTP adapter's
 * error table is typed by the union of both, so an unmapped code fails to compile.
 */
export type ApplicationErrorCode =
  | 'INVALID_TOKEN'
  | 'INVALID_REFRESH_TOKEN'
  | 'SESSION_NOT_FOUND'
  | 'EMAIL_NOT_VERIFIED'
  | 'INVALID_CURSOR'
  | 'MFA_ALREADY_ENROLLED'
  | 'MFA_NOT_ENROLLED'
  | 'INVALID_MFA_TOKEN'
  | 'INVALID_MFA_CODE'
  | 'STEP_UP_REQUIRED'
  | 'PASSKEY_REJECTED'
  | 'LAST_SIGN_IN_METHOD'
  | 'RECENT_SIGN_IN_REQUIRED'
  | 'INSUFFICIENT_SCOPE'
  | 'KEY_RATE_LIMITED'
  | 'NOT_AN_OPERATOR'
  | 'SECOND_FACTOR_REQUIRED'
  | 'USER_NOT_FOUND'
  | 'OVERLOADED'
  | 'STORE_UNAVAILABLE';

/**
 * A failure the application reports to its caller, with a stable code and no knowledge of any transport. Like a
 * DomainError it captures no stack trace (it is an answer, and capturing one is most of what an error answer costs),
 * unless it wraps a cause: a store that failed is a fault, and where it was met is worth a stack in the log.
 */
export abstract class ApplicationError<C extends string = ApplicationErrorCode> extends Error {
  /** The core's codes (`ApplicationErrorCode`), or a capability's own (its manifest's `errors`). */
  abstract readonly code: C;

  constructor(
    message: string,
    readonly issues: readonly FieldIssue[] = [],
    options?: { readonly cause?: unknown },
  ) {
    const stackFrames = Error.stackTraceLimit;
    if (options?.cause === undefined) Error.stackTraceLimit = 0;
    super(message, options);
    Error.stackTraceLimit = stackFrames;
    this.name = new.target.name;
  }
}

/**
 * The access token presented is not acceptable. One error for every failure (bad signature, unknown key, expired,
 * wrong issuer or audience, unknown subject) so that a client learns nothing about which check failed.
 */
export class InvalidToken extends ApplicationError {
  readonly code = 'INVALID_TOKEN';

  constructor() {
    super('Invalid access token', [{ field: null, message: 'the access token is invalid or expired' }]);
  }
}

/** A refresh token that is unknown, expired, revoked or reused: one error (and one answer) for all of them. */
export class InvalidRefreshToken extends ApplicationError {
  readonly code = 'INVALID_REFRESH_TOKEN';

  constructor() {
    super('Invalid refresh token', [{ field: 'refreshtoken', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or revoked' }]);
  }
}

/** No live session of the caller has this id (another account's session looks exactly the same). */
export class SessionNotFound extends ApplicationError {
  readonly code = 'SESSION_NOT_FOUND';

  constructor() {
    super('Session not found', [{ field: null, message: 'no such session' }]);
  }
}

/** An enrolment of a TOTP factor for an account that has a confirmed one (remove it first). */
export class MfaAlreadyEnrolled extends ApplicationError {
  readonly code = 'MFA_ALREADY_ENROLLED';

  constructor() {
    super('Second factor already enrolled', [{ field: null, message: 'remove the enrolled factor before enrolling another' }]);
  }
}

/** A removal, a step-up or new recovery codes for an account with no confirmed TOTP factor. */
export class MfaNotEnrolled extends ApplicationError {
  readonly code = 'MFA_NOT_ENROLLED';

  constructor() {
    super('No second factor enrolled', [{ field: null, message: 'the account has no confirmed second factor' }]);
  }
}

/**
 * An `mfatoken` that is not one this service handed out, expired, answered already, ended after too many wrong
 * codes, or outlived by a password change: one answer for all of them. Sign in again.
 */
export class InvalidMfaToken extends ApplicationError {
  readonly code = 'INVALID_MFA_TOKEN';

  constructor() {
    super('Invalid or expired sign-in challenge', [{ field: 'mfatoken', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired, used or ended: sign in again' }]);
  }
}

/** A TOTP code or recovery code that is wrong, or already used (a time step is accepted once). */
export class InvalidMfaCode extends ApplicationError {
  readonly code = 'INVALID_MFA_CODE';

  constructor(field: 'code' | 'recoverycode') {
    super('Invalid code', [{ field, code: 'INCORRECT', message: 'is incorrect or already used' }]);
  }
}

/**
 * An account with a second factor asked for something that needs a recent proof of it (a password change, removing
 * the factor, new recovery codes, signing out everywhere), with a token whose `amr` lacks `otp` or whose `auth_time`
 * is older than MFA_STEP_UP_SECONDS.
 */
export class StepUpRequired extends ApplicationError {
  readonly code = 'STEP_UP_REQUIRED';

  constructor(maxAgeSeconds: number) {
    super('Second factor required', [
      { field: null, message: `confirm it is you with a code (POST /auth/mfa/verify): this needs a second factor proved within the last ${maxAgeSeconds} seconds` },
    ]);
  }
}

/**
 * A WebAuthn answer that is not accepted: a challenge unknown, used or of the other ceremony, a wrong origin or RP ID,
 * no user verification, a bad signature, an unknown or removed passkey, or a counter that went backwards. `reason`
 * says which (the answer is the caller's own ceremony, so naming the check tells nobody else anything).
 */
export class PasskeyRejected extends ApplicationError {
  readonly code = 'PASSKEY_REJECTED';

  constructor(reason: string) {
    super('Invalid input data', [{ field: 'response', code: 'REJECTED', message: reason }]);
  }
}

/** Removing the account's last way to sign in (no password and no other passkey) is refused. */
export class LastSignInMethod extends ApplicationError {
  readonly code = 'LAST_SIGN_IN_METHOD';

  constructor() {
    super('Last way to sign in', [{ field: null, message: 'an account keeps a password, a passkey or a linked identity' }]);
  }
}

/**
 * An account without a password (made by a provider's sign-in) asked for something that needs its holder proved now,
 * and sent no proof made for this request: a code of its authenticator app (`code`), a passkey's answer (`passkey`) or
 * a provider re-authentication's code (`oauthcode`).
 * The age of the token proves nothing (a copied token is as young as the original).
 */
export class RecentSignInRequired extends ApplicationError {
  readonly code = 'RECENT_SIGN_IN_REQUIRED';

  constructor() {
    super('Recent sign-in required', [
      {
        field: null,
        message:
          'the account has no password: prove it is you now with `code` (your authenticator app), `passkey` (a passkey\'s answer to POST /auth/passkeys/authentication-options) or `oauthcode` and `code_verifier` (POST /auth/oauth/{provider}/reauthenticate)',
      },
    ]);
  }
}

/** An API key (or an operator's access token: `holder`) without the scope an operation needs. */
export class InsufficientScope extends ApplicationError {
  readonly code = 'INSUFFICIENT_SCOPE';

  constructor(scope: string, holder = 'this API key') {
    super('Insufficient scope', [{ field: null, message: `${holder} lacks the scope ${scope}` }]);
  }
}

/** A valid access token on the admin API, of an account that does not hold the operator role (now). */
export class NotAnOperator extends ApplicationError {
  readonly code = 'NOT_AN_OPERATOR';

  constructor() {
    super('Not an operator', [{ field: null, message: 'this account does not hold the operator role' }]);
  }
}

/** An operator's access token on the admin API from a sign-in that proved one factor only (its `amr` has no otp, no webauthn). */
export class SecondFactorRequired extends ApplicationError {
  readonly code = 'SECOND_FACTOR_REQUIRED';

  constructor() {
    super('Second factor required', [
      {
        field: null,
        message:
          'the admin API takes an operator\'s token from a sign-in with a second factor: sign in with it (POST /auth/sign-in, then POST /auth/sign-in/mfa, or a passkey) or confirm it on this session (POST /auth/mfa/verify); an account without one sets it up first (POST /auth/mfa/totp)',
      },
    ]);
  }
}

/** An API key over its rate limit (API_KEY_RATE_LIMIT_PER_MINUTE); again after `retryAfterSeconds`. */
export class KeyRateLimited extends ApplicationError {
  readonly code = 'KEY_RATE_LIMITED';

  constructor(readonly retryAfterSeconds: number) {
    super('Too many requests', [{ field: null, message: 'this API key is over its rate limit; try again later' }]);
  }
}

/** No account has this id (the admin API). */
export class UserNotFound extends ApplicationError {
  readonly code = 'USER_NOT_FOUND';

  constructor() {
    super('User not found', [{ field: 'id', code: 'UNKNOWN', message: 'no account has this id' }]);
  }
}

/** Sign-in of an account whose address is not verified, while REQUIRE_VERIFIED_EMAIL is on. */
export class EmailNotVerified extends ApplicationError {
  readonly code = 'EMAIL_NOT_VERIFIED';

  constructor() {
    super('Email address not verified', [{ field: 'email', code: 'NOT_VERIFIED', message: 'is not verified yet; follow the link in the verification mail' }]);
  }
}

/** A paging cursor that is malformed or was issued by another adapter. */
export class InvalidCursor extends ApplicationError {
  readonly code = 'INVALID_CURSOR';

  constructor() {
    super('Invalid cursor');
  }
}

/**
 * Thrown by an adapter that cannot serve right now: overloaded, or its store unreachable or unable to write.
 * The request may be retried after `retryAfterSeconds`; nothing was written.
 */
export class ServiceUnavailable extends ApplicationError {
  readonly code: 'OVERLOADED' | 'STORE_UNAVAILABLE';

  constructor(
    readonly reason: 'overloaded' | 'store_unavailable',
    readonly retryAfterSeconds: number,
    /** What the adapter saw (logged with the request id, never sent). */
    cause?: unknown,
  ) {
    super(`Service unavailable: ${reason}`, [], cause === undefined ? undefined : { cause });
    this.code = reason === 'overloaded' ? 'OVERLOADED' : 'STORE_UNAVAILABLE';
  }
}

/**
 * Thrown by a MailSender whose transport refused a mail for good (an SMTP 5xx: no such mailbox, policy rejection):
 * sending it again cannot succeed, so the outbox dead-letters it at once instead of retrying.
 */
export class MailRefusedPermanently extends Error {
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'MailRefusedPermanently';
  }
}

/**
 * Thrown by a MailSender when the relay itself failed, before this mail's envelope was answered: it could not be
 * reached, its greeting refused the connection, TLS or authentication failed (4xx or 5xx alike). Those are conditions
 * of the relay, not of the mail: the outbox keeps the mail, counts no attempt against it, and tries again later.
 */
export class MailRelayUnavailable extends Error {
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'MailRelayUnavailable';
  }
}
