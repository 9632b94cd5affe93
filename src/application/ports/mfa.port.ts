import type { FirstFactor } from '../../domain/session.js';
import type { SecondFactorRequired } from '../shared/auth-result.js';
import { token } from '../di-token.js';
import type { RequestMetadata } from './event-log.port.js';
import type { MfaStatus } from './user-read-model.port.js';
import { InvalidMfaCode } from '../errors.js';

/** A one-time code presented: a TOTP code, or a recovery code (the field it came in). */
export interface CodeAnswer {
  readonly kind: 'code' | 'recoverycode';
  readonly answer: string;
}

/**
 * The account's second factor (an authenticator app with its recovery codes) as the core's rules reach it: a sign-in
 * whose first factor was right waits for it, step-up asks that a token proved it recently, and the holder of an
 * account without a password proves themselves with one of its codes.
 */
export interface Mfa {
  /** Whether the account has a confirmed second factor: its sign-ins then wait for it, its step-up asks for it. */
  requiredFor(userId: string): Promise<boolean>;
  /**
   * The challenge a sign-in whose first factor (`pwd`, or `oauth` from a provider) was right answers at POST
   * /auth/sign-in/mfa: bound to the account's session epoch and that first factor, naming what may answer it.
   */
  challenge(user: { readonly id: string; readonly sessionEpoch: number }, firstFactor: FirstFactor): Promise<SecondFactorRequired>;
  /**
   * Proves a code of the account's confirmed factor, made for this request, and spends it (its TOTP step, or the
   * recovery code, with RecoveryCodeUsed) by compare-and-swap. Throws InvalidMfaCode for a wrong or spent code, or
   * when the account has no confirmed factor.
   */
  proveCode(code: CodeAnswer, user: { readonly id: string; readonly email: string }, metadata: RequestMetadata): Promise<void>;
}

/** The query side of the second factor: what `/auth/me` and the admin view show of it, read from the store. */
export interface MfaStatusReadModel {
  /** Whether the account has a confirmed factor, and its unused recovery codes: one read by key, never a secret. */
  statusOf(userId: string): Promise<MfaStatus>;
}

/** No second factor to show: what the core binds unless a capability provides one. */
export const NO_MFA_STATUS: MfaStatusReadModel = { statusOf: () => Promise.resolve({ enrolled: false, recoveryCodesLeft: 0 }) };

export const MFA_STATUS = token<MfaStatusReadModel>('MfaStatusReadModel');

/** No second factor: what the core binds unless a capability provides one (no account has one; no code proves anything). */
export const NO_MFA: Mfa = {
  requiredFor: () => Promise.resolve(false),
  challenge: () => Promise.reject(new Error('No capability provides a second factor: requiredFor is false, so no challenge is opened')),
  proveCode: () => Promise.reject(new InvalidMfaCode('code')),
};

export const MFA = token<Mfa>('Mfa');
