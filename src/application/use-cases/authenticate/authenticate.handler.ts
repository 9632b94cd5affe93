import { acceptAccessToken } from '../../policies/bearer.js';
import type { Ports } from '../../ports/ports.js';
import type { Principal } from '../../shared/principal.js';

export interface AuthenticateQuery {
  /** The raw access token the client presented. */
  readonly accessToken: string;
  /** The one thing an unverified account may do when REQUIRE_VERIFIED_EMAIL is on: ask for another verification mail. */
  readonly allowUnverified?: boolean;
}

/**
 * Every authenticated route starts here: the token must verify AND its session must be live now; with
 * REQUIRE_VERIFIED_EMAIL, the account's address must be verified too (but for `allowUnverified`). Writes nothing.
 */
export class AuthenticateHandler {
  constructor(
    private readonly deps: Pick<Ports, 'verifier' | 'sessionViews' | 'clock'>,
    private readonly requireVerifiedEmail = false,
  ) {}

  /**
   * Returns the principal; throws InvalidToken for a token that does not verify, names no session, or whose session
   * ended, and EmailNotVerified for an account whose address is not verified when that is required.
   */
  async execute(query: AuthenticateQuery): Promise<Principal> {
    const { token, sessionId, account } = await acceptAccessToken(this.deps, query.accessToken, this.requireVerifiedEmail, query.allowUnverified);
    return { userId: token.userId, sessionId, amr: token.amr, authTime: token.authTime, account };
  }
}
