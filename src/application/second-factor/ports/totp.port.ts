import { token } from '../../di-token.js';

/**
 * Time-based one-time codes (RFC 6238: SHA-1, 6 digits, 30-second steps), computed by a library, never by hand.
 * A step is the number of whole periods since the epoch; the code of a step is accepted once per account (the
 * account's factor remembers the last step used, see `TotpFactor`).
 */
export interface Totp {
  /** A fresh random secret (160 bits), as base32: what an authenticator app stores. */
  newSecret(): string;
  /** The `otpauth://totp/...` URI an authenticator app reads (from a QR code, or typed). */
  uriFor(secret: string, account: string): string;
  /**
   * The step `code` belongs to at `at`, within one step of drift either way, taking only steps after `after` (those
   * at or before it were used): the smallest such step whose code equals `code`, compared in constant time; null when
   * none does.
   */
  stepOf(secret: string, code: string, at: Date, after: number): number | null;
  /** The step `at` falls in. */
  stepAt(at: Date): number;
  /** The URI as a QR code, an SVG document an app can show as it is (what a phone's camera scans). */
  qrCodeOf(uri: string): Promise<string>;
}

export const TOTP = token<Totp>('Totp');
