import { timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Totp } from '../../application/second-factor/ports/totp.port.js';

const PERIOD_SECONDS = 30;
const DIGITS = 6;
const ALGORITHM = 'SHA1';
/** Steps of drift accepted either way (RFC 6238, section 5.2 recommends at most one). */
const DRIFT = 1;

const sameCode = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** RFC 6238 TOTP through `otpauth` (SHA-1, 6 digits, 30 s), the parameters every authenticator app reads. */
export class OtpAuthTotp implements Totp {
  constructor(private readonly issuer: string) {}

  newSecret(): string {
    return new Secret({ size: 20 }).base32;
  }

  uriFor(secret: string, account: string): string {
    return new TOTP({ issuer: this.issuer, label: account, secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: DIGITS, period: PERIOD_SECONDS }).toString();
  }

  stepAt(at: Date): number {
    return Math.floor(at.getTime() / 1000 / PERIOD_SECONDS);
  }

  qrCodeOf(uri: string): Promise<string> {
    return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  }

  stepOf(secret: string, code: string, at: Date, after: number): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    const key = Secret.fromBase32(secret);
    const now = this.stepAt(at);
    for (let step = now - DRIFT; step <= now + DRIFT; step++) {
      if (step <= after) continue;
      const expected = TOTP.generate({ secret: key, algorithm: ALGORITHM, digits: DIGITS, period: PERIOD_SECONDS, timestamp: step * PERIOD_SECONDS * 1000 });
      if (sameCode(expected, code)) return step;
    }
    return null;
  }
}
