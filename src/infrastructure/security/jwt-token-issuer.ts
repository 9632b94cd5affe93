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
 * (the header jsonwebtoken writes, `{"alg":"ES256","typ":"JWT","kid":…}`), signed by `crypto.sign` on the event loop
 * (about 24 µs). Handing the signature to libuv's pool instead cost the loop about as much in the hand-off alone (a
 * sleeping pool thread woken per token, then the loop woken back) and the process more CPU in all: refresh served 4,287
 * rotations/s that way against 5,017/s signing here (docs/operations.md, sixth pass). What verifies them is jsonwebtoken
 * (JwtTokenVerifier), which the tests check against every token issued.
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
    const signature = sign('sha256', Buffer.from(signed), { key: this.key.privateKey, dsaEncoding: 'ieee-p1363' });
    return Promise.resolve(`${signed}.${signature.toString('base64url')}`);
  }
}
