import { token } from '../di-token.js';

export interface AccessTokenSubject {
  readonly userId: string;
}

/** Issues signed access tokens. */
export interface TokenIssuer {
  /** Returns a new signed access token for the subject; every call yields a distinct token (its own id). */
  issue(subject: AccessTokenSubject): Promise<string>;
}

export const TOKEN_ISSUER = token<TokenIssuer>('TokenIssuer');
