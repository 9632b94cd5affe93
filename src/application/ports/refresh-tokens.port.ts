import { token } from '../di-token.js';

/** What a refresh token designates: a generation of one session. */
export interface RefreshTokenClaim {
  readonly sessionId: string;
  readonly generation: number;
}

/**
 * Refresh tokens as a keyed derivation of (session id, generation): nothing about a token is stored, so a reader of
 * the store holds nothing usable, and the successor of a generation can be answered again during the grace window.
 */
export interface RefreshTokens {
  /** Returns the token of this generation of the session: high-entropy, the same for the same inputs. Pure. */
  issue(claim: RefreshTokenClaim): string;

  /** Returns what the token designates when this service issued it (keyed check, constant time); null otherwise. Pure. */
  read(refreshToken: string): RefreshTokenClaim | null;
}

export const REFRESH_TOKENS = token<RefreshTokens>('RefreshTokens');
