import { ApplicationError, ServiceUnavailable } from '../../errors.js';
import type { Ports } from '../../ports/ports.js';
import { acceptAccessToken } from '../../policies/bearer.js';

export interface IntrospectTokenQuery {
  /** The token a resource server was given; anything at all. */
  readonly token: string;
}

/** RFC 7662's answer: `active` and, for an active access token, its claims (epoch seconds). */
export type Introspection =
  | { readonly active: false }
  | { readonly active: true; readonly sub: string; readonly sid: string; readonly exp: number; readonly iat: number; readonly amr: readonly string[]; readonly token_type: 'Bearer' };

const INACTIVE: Introspection = { active: false };
const seconds = (at: Date): number => Math.floor(at.getTime() / 1000);

/**
 * Token introspection (RFC 7662) for resource servers: an access token is active exactly when a bearer request with it
 * would be accepted (acceptAccessToken: it verifies, its session is live now and, with REQUIRE_VERIFIED_EMAIL, its
 * account's address is proven), so a sign-out, a revoked session or a deleted account answers `active: false` at once. Anything else (garbage, a refresh token, a forged or
 * expired token) is `active: false`, never an error; only a store that cannot answer is (ServiceUnavailable, 503).
 */
export class IntrospectTokenHandler {
  constructor(
    private readonly deps: Pick<Ports, 'verifier' | 'sessionViews' | 'clock'>,
    private readonly requireVerifiedEmail = false,
  ) {}

  async execute(query: IntrospectTokenQuery): Promise<Introspection> {
    try {
      const { token, sessionId } = await acceptAccessToken(this.deps, query.token, this.requireVerifiedEmail);
      return { active: true, sub: token.userId, sid: sessionId, exp: seconds(token.expiresAt), iat: seconds(token.issuedAt), amr: token.amr, token_type: 'Bearer' };
    } catch (error) {
      if (error instanceof ServiceUnavailable || !(error instanceof ApplicationError)) throw error;
      return INACTIVE;
    }
  }
}
