import { token } from '../../di-token.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { OpenedSession } from '../../shared/auth-result.js';

/** The answer to a sign-in's second-factor challenge, as a sign-in page of another capability takes it. */
export interface SecondFactorAnswer {
  /** The challenge the password sign-in opened (its `mfaToken`). */
  readonly mfaToken: string;
  /** A 6-digit code of the authenticator app, or a recovery code. */
  readonly code: string;
  readonly metadata: RequestMetadata;
}

/**
 * A sign-in that waits for its second factor, completed as `POST /auth/sign-in/mfa` completes it (the same use case:
 * its caps on wrong codes, its throttle, its single use), for sign-in pages outside this capability (the OpenID
 * provider's). Throws what that use case throws (InvalidMfaToken, InvalidMfaCode, TooManyAttempts, InvalidInput).
 */
export interface SecondFactorSignIn {
  /** The session opened, and how (`amr`: the challenge's first factor, `pwd` or `oauth`, and `otp`). */
  complete(answer: SecondFactorAnswer): Promise<OpenedSession>;
}

export const SECOND_FACTOR_SIGN_IN = token<SecondFactorSignIn>('SecondFactorSignIn');
