import { EmailNotVerified, InvalidToken } from '../errors.js';
import type { Ports } from '../ports/ports.js';
import type { VerifiedToken } from '../ports/token-verifier.port.js';
import type { UserView } from '../ports/user-read-model.port.js';

/** An access token accepted now: what it says, and the account of its live session. */
export interface AcceptedToken {
  readonly token: VerifiedToken;
  /** The token's session (never null here). */
  readonly sessionId: string;
  readonly account: UserView;
}

/**
 * The one check every consumer of an access token makes (a bearer request, introspection): the token verifies, names
 * a session, that session is live now, and, with REQUIRE_VERIFIED_EMAIL, the account's address is proven (but for
 * `allowUnverified`, the resend). Throws InvalidToken or EmailNotVerified; writes nothing.
 */
export async function acceptAccessToken(
  deps: Pick<Ports, 'verifier' | 'sessionViews' | 'clock'>,
  accessToken: string,
  requireVerifiedEmail: boolean,
  allowUnverified = false,
): Promise<AcceptedToken> {
  const token = await deps.verifier.verify(accessToken);
  if (token.sessionId === null) throw new InvalidToken();
  const account = await deps.sessionViews.liveSessionAccount(token.sessionId, token.userId, deps.clock.now());
  if (!account) throw new InvalidToken();
  if (requireVerifiedEmail && !allowUnverified && !account.emailverified) throw new EmailNotVerified();
  return { token, sessionId: token.sessionId, account };
}
