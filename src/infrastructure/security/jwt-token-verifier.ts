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

/** Verifies ES256 JWTs against the key ring by `kid`; any other algorithm (none, HS256, RS256...) is refused. */
export class JwtTokenVerifier implements TokenVerifier {
  constructor(
    private readonly keys: VerificationKeyRing,
    private readonly settings: VerificationSettings,
    private readonly clock: Clock,
  ) {}

  verify(accessToken: string): Promise<VerifiedToken> {
    try {
      return Promise.resolve(this.check(accessToken));
    } catch {
      return Promise.reject(new InvalidToken());
    }
  }

  /** Throws InvalidToken, or whatever jsonwebtoken throws; `verify` turns all of it into InvalidToken. */
  private check(accessToken: string): VerifiedToken {
    if (accessToken.length > MAX_TOKEN_LENGTH) throw new InvalidToken();
    const kid = jwt.decode(accessToken, { complete: true })?.header.kid;
    const key = typeof kid === 'string' ? this.keys.find(kid) : null;
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
    return { userId: claims.sub, sessionId: typeof sessionId === 'string' ? sessionId : null, tokenId: claims.jti, expiresAt: new Date(claims.exp * 1000) };
  }
}
