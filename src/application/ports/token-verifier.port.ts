import { token } from '../di-token.js';

/** What a verified access token establishes. */
export interface VerifiedToken {
  readonly userId: string;
  /** The `sid` claim; null for a token that names no session (refused by authentication). */
  readonly sessionId: string | null;
  readonly tokenId: string;
  readonly expiresAt: Date;
}

/** Checks access tokens issued by this service (or by a key it still trusts). */
export interface TokenVerifier {
  /**
   * Returns the subject of a token whose signature, key id, algorithm, issuer, audience and validity window
   * (against the Clock) all check out. Throws `InvalidToken` for every other token, never another error.
   * Pure and idempotent: it does not look the subject up, so a token for a deleted user still verifies here.
   */
  verify(accessToken: string): Promise<VerifiedToken>;
}

export const TOKEN_VERIFIER = token<TokenVerifier>('TokenVerifier');
