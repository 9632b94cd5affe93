import { token } from '../di-token.js';

/** What a verified access token establishes. */
export interface VerifiedToken {
  readonly userId: string;
  /** The `sid` claim; null for a token that names no session (refused by authentication). */
  readonly sessionId: string | null;
  readonly tokenId: string;
  /** The `amr` claim: how the holder proved who they are when the token was issued ([] when absent). */
  readonly amr: readonly string[];
  /** The `auth_time` claim; null when absent. */
  readonly authTime: Date | null;
  readonly expiresAt: Date;
  /** The `iat` claim. */
  readonly issuedAt: Date;
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
