import { token } from '../../di-token.js';

/**
 * The secrets of second factors at rest: a TOTP secret is stored sealed (encrypted and authenticated, bound to its
 * account), a recovery code only as a keyed MAC. Nothing stored lets a reader compute a code or find a recovery
 * code without the server's key.
 */
export interface FactorSecrets {
  /** The secret sealed for `userId` (AES-256-GCM, the account id as associated data). */
  seal(secret: string, userId: string): string;
  /** The secret, or null when `sealed` was altered, sealed under another key or for another account. */
  open(sealed: string, userId: string): string | null;
  /** `count` fresh recovery codes, as shown to the owner once (`xxxxx-xxxxx`, base32, 50 bits each). */
  newRecoveryCodes(count: number): string[];
  /** The keyed MAC a recovery code is stored as, for `userId`; the code is normalised first (case, dashes, spaces). */
  macOf(code: string, userId: string): string;
  /** Whether `code` is the one `mac` was made from, for `userId`, compared in constant time. */
  matches(code: string, userId: string, mac: string): boolean;
  /** A fresh sign-in challenge token (`mfatoken`, 256 random bits), handed to the client and never stored. */
  newChallengeToken(): string;
  /** The keyed MAC a challenge is stored under, for a token of the right shape; null for anything else. */
  challengeIdOf(challengeToken: string): string | null;
}

export const FACTOR_SECRETS = token<FactorSecrets>('FactorSecrets');
