import jwt from 'jsonwebtoken';
import type { Clock } from '../../application/ports/clock.port.js';
import { InvalidToken } from '../../application/errors.js';
import type { TokenVerifier, VerifiedToken } from '../../application/ports/token-verifier.port.js';
import type { VerificationKeyRing } from './verification-key-ring.js';

export interface VerificationSettings {
  readonly issuer: string;
  readonly audience: string;
}

const MAX_TOKEN_LENGTH = 4096;
/** Verified tokens remembered at most (the oldest is forgotten first): about 1 MiB. */
export const VERIFIED_CACHE_SIZE = 4096;

interface Remembered {
  readonly verified: VerifiedToken;
  readonly kid: string;
}

/**
 * Verifies ES256 JWTs against the key ring by `kid`; any other algorithm (none, HS256, RS256...) is refused. A token
 * whose signature checked out is remembered (a bounded map keyed by the token itself), so a client's next requests
 * with it skip the signature check: each is still refused once expired (by the clock), and once its key left the
 * ring. The session behind it is checked on every request by authentication, so revocation stays immediate.
 */
export class JwtTokenVerifier implements TokenVerifier {
  private readonly verified = new Map<string, Remembered>();

  constructor(
    private readonly keys: VerificationKeyRing,
    private readonly settings: VerificationSettings,
    private readonly clock: Clock,
  ) {}

  verify(accessToken: string): Promise<VerifiedToken> {
    const remembered = this.verified.get(accessToken);
    if (remembered && remembered.verified.expiresAt.getTime() > this.clock.now().getTime() && this.keys.find(remembered.kid)) {
      return Promise.resolve(remembered.verified);
    }
    try {
      return Promise.resolve(this.check(accessToken));
    } catch {
      this.verified.delete(accessToken);
      return Promise.reject(new InvalidToken());
    }
  }

  private remember(accessToken: string, kid: string, verified: VerifiedToken): VerifiedToken {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value ?? accessToken);
    this.verified.set(accessToken, { verified, kid });
    return verified;
  }

  /** Throws InvalidToken, or whatever jsonwebtoken throws; `verify` turns all of it into InvalidToken. */
  private check(accessToken: string): VerifiedToken {
    if (accessToken.length > MAX_TOKEN_LENGTH) throw new InvalidToken();
    const kid = jwt.decode(accessToken, { complete: true })?.header.kid;
    if (typeof kid !== 'string') throw new InvalidToken();
    const key = this.keys.find(kid);
    if (!key) throw new InvalidToken();
    const claims = jwt.verify(accessToken, key, {
      algorithms: ['ES256'],
      issuer: this.settings.issuer,
      audience: this.settings.audience,
      clockTimestamp: Math.floor(this.clock.now().getTime() / 1000),
    });
    if (typeof claims === 'string' || !claims.sub || typeof claims.jti !== 'string' || typeof claims.exp !== 'number') {
      throw new InvalidToken();
    }
    const sessionId: unknown = claims['sid'];
    const amr: unknown = claims['amr'];
    const authTime: unknown = claims['auth_time'];
    return this.remember(accessToken, kid, {
      userId: claims.sub,
      sessionId: typeof sessionId === 'string' ? sessionId : null,
      tokenId: claims.jti,
      expiresAt: new Date(claims.exp * 1000),
      issuedAt: new Date((typeof claims.iat === 'number' ? claims.iat : 0) * 1000),
      amr: Array.isArray(amr) ? amr.filter((method): method is string => typeof method === 'string') : [],
      authTime: typeof authTime === 'number' && Number.isFinite(authTime) ? new Date(authTime * 1000) : null,
    });
  }
}
