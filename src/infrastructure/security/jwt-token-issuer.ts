import { sign } from 'node:crypto';
import type { Clock } from '../../application/ports/clock.port.js';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';
import type { AccessTokenSubject, TokenIssuer } from '../../application/ports/token-issuer.port.js';
import type { SigningKey } from './signing-key.js';

export interface TokenSettings {
  readonly issuer: string;
  readonly audience: string;
  readonly ttlSeconds: number;
}

const base64Url = (json: unknown): string => Buffer.from(JSON.stringify(json)).toString('base64url');

/**
 * ES256 JWTs with `kid`, and claims sub, sid, amr, auth_time, iat, exp, iss, aud, jti: the JWS compact form of RFC 7515
 * (the header jsonwebtoken writes, `{"alg":"ES256","typ":"JWT","kid":…}`), signed by `crypto.sign` with a callback, so
 * the ECDSA signature (about 40 µs) runs on libuv's pool, off the event loop, as jsonwebtoken's synchronous `sign`
 * cannot. What verifies them is jsonwebtoken (JwtTokenVerifier), which the tests check against every token issued.
 */
export class JwtTokenIssuer implements TokenIssuer {
  private readonly header: string;

  constructor(
    private readonly key: SigningKey,
    private readonly settings: TokenSettings,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {
    this.header = base64Url({ alg: 'ES256', typ: 'JWT', kid: key.kid });
  }

  get lifetimeSeconds(): number {
    return this.settings.ttlSeconds;
  }

  issue(subject: AccessTokenSubject): Promise<string> {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims = {
      sub: subject.userId, sid: subject.sessionId, amr: subject.amr, auth_time: Math.floor(subject.authTime.getTime() / 1000), iat, exp: iat + this.settings.ttlSeconds, iss: this.settings.issuer, aud: this.settings.audience, jti: this.ids.next(),
    };
    const signed = `${this.header}.${base64Url(claims)}`;
    return new Promise((resolve, reject) => {
      sign('sha256', Buffer.from(signed), { key: this.key.privateKey, dsaEncoding: 'ieee-p1363' }, (error, signature) => {
        if (error) reject(error);
        else resolve(`${signed}.${signature.toString('base64url')}`);
      });
    });
  }
}
