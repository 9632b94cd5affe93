import jwt from 'jsonwebtoken';
import type { Clock } from '../../application/ports/clock.port.js';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';
import type { AccessTokenSubject, TokenIssuer } from '../../application/ports/token-issuer.port.js';
import type { SigningKey } from './signing-key.js';

export interface TokenSettings {
  readonly issuer: string;
  readonly audience: string;
  readonly ttlSeconds: number;
}

/** ES256 JWTs with `kid`, and claims sub, sid, amr, auth_time, iat, exp, iss, aud, jti. */
export class JwtTokenIssuer implements TokenIssuer {
  constructor(
    private readonly key: SigningKey,
    private readonly settings: TokenSettings,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  get lifetimeSeconds(): number {
    return this.settings.ttlSeconds;
  }

  issue(subject: AccessTokenSubject): Promise<string> {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims = {
      sub: subject.userId, sid: subject.sessionId, amr: subject.amr, auth_time: Math.floor(subject.authTime.getTime() / 1000), iat, exp: iat + this.settings.ttlSeconds, iss: this.settings.issuer, aud: this.settings.audience, jti: this.ids.next(),
    };
    return Promise.resolve(jwt.sign(claims, this.key.privateKey, { algorithm: 'ES256', keyid: this.key.kid }));
  }
}
