import { ApplicationError, ServiceUnavailable } from '../../errors.js';
import type { Ports } from '../../ports/ports.js';

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
 * Token introspection (RFC 7662) for resource servers: an access token is active while it verifies (signature, issuer,
 * audience, expiry) AND its session is live now, the same check every bearer request makes, so a sign-out, a revoked
 * session or a deleted account answers `active: false` at once. Anything else (garbage, a refresh token, a forged or
 * expired token) is `active: false`, never an error; only a store that cannot answer is (ServiceUnavailable, 503).
 */
export class IntrospectTokenHandler {
  constructor(private readonly deps: Pick<Ports, 'verifier' | 'sessionViews' | 'clock'>) {}

  async execute(query: IntrospectTokenQuery): Promise<Introspection> {
    try {
      const token = await this.deps.verifier.verify(query.token);
      if (token.sessionId === null) return INACTIVE;
      const account = await this.deps.sessionViews.liveSessionAccount(token.sessionId, token.userId, this.deps.clock.now());
      if (!account) return INACTIVE;
      return { active: true, sub: token.userId, sid: token.sessionId, exp: seconds(token.expiresAt), iat: seconds(token.issuedAt), amr: token.amr, token_type: 'Bearer' };
    } catch (error) {
      if (error instanceof ServiceUnavailable || !(error instanceof ApplicationError)) throw error;
      return INACTIVE;
    }
  }
}
