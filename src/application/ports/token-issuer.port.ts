import { token } from '../di-token.js';

export interface AccessTokenSubject {
  readonly userId: string;
  /** The session the token belongs to (its `sid` claim): the token is refused as soon as the session ends. */
  readonly sessionId: string;
  /** How the holder proved who they are (the `amr` claim). */
  readonly amr: readonly string[];
  /** When they last did (the `auth_time` claim). */
  readonly authTime: Date;
}

/** Issues signed access tokens. */
export interface TokenIssuer {
  /** Returns a new signed access token for the subject; every call yields a distinct token (its own id). */
  issue(subject: AccessTokenSubject): Promise<string>;

  /** How long an issued token is valid, in seconds. */
  readonly lifetimeSeconds: number;
}

export const TOKEN_ISSUER = token<TokenIssuer>('TokenIssuer');
