import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FactorSecrets } from '../../application/second-factor/ports/factor-secrets.port.js';
import { derivedKey } from '../security/hmac-refresh-tokens.js';

const SEALED = /^s1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const CODE = /^[A-Z2-7]{10}$/;
const CHALLENGE = /^mfa1\.[A-Za-z0-9_-]{43}$/;

/** A recovery code as compared: upper case, without the dashes and spaces a person may type. */
const normalised = (code: string): string => code.toUpperCase().replace(/[\s-]/g, '');

/**
 * Second-factor secrets under keys derived (HKDF) from one secret: MFA_SECRET_KEY when set, else the material the
 * refresh tokens use. A sealed TOTP secret is `s1.<iv>.<ciphertext>.<tag>` (AES-256-GCM, 96-bit random IV, the
 * account id as associated data, so a sealed secret moved to another account does not open); a recovery code is
 * stored as HMAC-SHA-256 of the account id and the normalised code.
 */
export class KeyedFactorSecrets implements FactorSecrets {
  private readonly sealKey: Buffer;
  private readonly macKey: Buffer;
  private readonly challengeKey: Buffer;

  constructor(secret: Buffer) {
    this.sealKey = derivedKey(secret, 'mfa-secret-seal');
    this.macKey = derivedKey(secret, 'mfa-recovery-code');
    this.challengeKey = derivedKey(secret, 'mfa-challenge');
  }

  newChallengeToken(): string {
    return `mfa1.${randomBytes(32).toString('base64url')}`;
  }

  challengeIdOf(challengeToken: string): string | null {
    return CHALLENGE.test(challengeToken) ? createHmac('sha256', this.challengeKey).update(challengeToken).digest('base64url') : null;
  }

  seal(secret: string, userId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv).setAAD(Buffer.from(userId, 'utf8'));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `s1.${iv.toString('base64url')}.${sealed.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  open(sealed: string, userId: string): string | null {
    const parts = SEALED.exec(sealed);
    if (!parts) return null;
    const [, iv = '', body = '', tag = ''] = parts;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.sealKey, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(userId, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  newRecoveryCodes(count: number): string[] {
    return Array.from({ length: count }, () => {
      const code = [...randomBytes(10)].map((byte) => BASE32[byte & 31]).join('');
      return `${code.slice(0, 5)}-${code.slice(5)}`.toLowerCase();
    });
  }

  macOf(code: string, userId: string): string {
    return createHmac('sha256', this.macKey).update(userId).update('\u0000').update(normalised(code)).digest('base64url');
  }

  matches(code: string, userId: string, mac: string): boolean {
    if (!CODE.test(normalised(code))) return false;
    const expected = Buffer.from(this.macOf(code, userId));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
