import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { RefreshTokenClaim, RefreshTokens } from '../../application/ports/refresh-tokens.port.js';

const PREFIX = 'rt1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN = /^rt1\.([0-9a-f-]{36})\.(\d{1,9})\.([A-Za-z0-9_-]{43})$/;

/** A 256-bit key for one use (`refresh-token-v1`, `one-time-token-v1`), derived (HKDF-SHA256) from the server secret. */
export const derivedKey = (secret: Buffer, label: string): Buffer => Buffer.from(hkdfSync('sha256', secret, 'account-service', label, 32));

export const refreshTokenKey = (secret: Buffer): Buffer => derivedKey(secret, 'refresh-token-v1');

/**
 * `rt1.<session id>.<generation>.<HMAC-SHA256(key, "<session id>.<generation>")>`: 256 bits of keyed MAC, nothing
 * stored. Without the key, the store and the logs hold nothing from which a token can be made.
 */
export class HmacRefreshTokens implements RefreshTokens {
  constructor(private readonly key: Buffer) {}

  issue({ sessionId, generation }: RefreshTokenClaim): string {
    return `${PREFIX}.${sessionId}.${generation}.${this.mac(sessionId, generation).toString('base64url')}`;
  }

  /**
   * The claim of a token this key issued, or null. Canonical: the token must be exactly the string `issue` gives for
   * its claim (no leading zeros in the generation, no other spelling of the MAC's last base64url character), so one
   * session and generation has one refresh token and no variant of it refreshes.
   */
  read(refreshToken: string): RefreshTokenClaim | null {
    const match = TOKEN.exec(refreshToken);
    if (!match?.[1] || !match[2] || !match[3] || !UUID.test(match[1])) return null;
    const claim = { sessionId: match[1], generation: Number(match[2]) };
    const presented = Buffer.from(refreshToken);
    const expected = Buffer.from(this.issue(claim));
    return presented.length === expected.length && timingSafeEqual(presented, expected) ? claim : null;
  }

  private mac(sessionId: string, generation: number): Buffer {
    return createHmac('sha256', this.key).update(`${sessionId}.${generation}`).digest();
  }
}
