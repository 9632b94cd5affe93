import type { Email } from './email.js';
import { type Parsed, hasLoneSurrogate, invalid, rawText, valid } from './validation.js';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

const codePoints = (text: string): number => [...text].length;

/**
 * A password as typed by its owner: never trimmed, NFKC-normalised so that the same password typed
 * on different keyboards hashes the same. Never stored, logged or put in an event.
 */
export class PlainPassword {
  private constructor(readonly value: string) {}

  /** Rules for choosing a new password (sign-up): 8 to 128 characters, not the e-mail or its local part. */
  static choose(input: unknown, email: Email | null, field = 'password'): Parsed<PlainPassword> {
    const parsed = PlainPassword.parse(input, field);
    if (!parsed.ok) return parsed;
    const value = parsed.value.value;
    if (codePoints(value) < PASSWORD_MIN_LENGTH) {
      return invalid(field, 'TOO_SHORT', `must be at least ${PASSWORD_MIN_LENGTH} characters`);
    }
    const lowered = value.toLowerCase();
    if (email && (lowered === email.value || lowered === email.localPart)) {
      return invalid(field, 'SAME_AS_EMAIL', 'must not be the same as the email address');
    }
    return parsed;
  }

  /** Rules for a password offered to sign in: present, and short enough to bound the cost of verifying it. */
  static parse(input: unknown, field = 'password'): Parsed<PlainPassword> {
    const raw = rawText(field, input);
    if (!raw.ok) return raw;
    if (hasLoneSurrogate(raw.value)) return invalid(field, 'INVALID_CHARACTERS', 'must be valid Unicode text');
    const value = raw.value.normalize('NFKC');
    if (value.length === 0) return invalid(field, 'REQUIRED', 'is required');
    if (codePoints(value) > PASSWORD_MAX_LENGTH) {
      return invalid(field, 'TOO_LONG', `must be at most ${PASSWORD_MAX_LENGTH} characters`);
    }
    return valid(new PlainPassword(value));
  }

  toJSON(): string {
    return '[redacted]';
  }
}
