import { type Parsed, hasLoneSurrogate, invalid, rawText, valid } from './validation.js';

export const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART_MAX_LENGTH = 64;
/** Controls (Cc), format characters such as zero-width ones (Cf), line and paragraph separators, unassigned and private-use code points. */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cn}\p{Co}]/u;
const EMAIL_SHAPE = /^[^\s@"(),:;<>[\\\]]+@(?:[a-z0-9\p{L}\p{N}](?:[a-z0-9\p{L}\p{N}-]*[a-z0-9\p{L}\p{N}])?\.)+[a-z\p{L}]{2,}$/u;

/** An e-mail address, normalised (trimmed, Unicode NFC, lower case) before any rule is applied. */
export class Email {
  private constructor(readonly value: string) {}

  static normalise(raw: string): string {
    return raw.trim().normalize('NFC').toLowerCase();
  }

  static parse(input: unknown): Parsed<Email> {
    const raw = rawText('email', input);
    if (!raw.ok) return raw;
    if (hasLoneSurrogate(raw.value)) return invalid('email', 'must be valid Unicode text');
    const value = Email.normalise(raw.value);
    if (value.length === 0) return invalid('email', 'is required');
    if (UNSEEN.test(value)) return invalid('email', 'must not contain control, invisible or unassigned characters');
    if (value.length > EMAIL_MAX_LENGTH) return invalid('email', `must be at most ${EMAIL_MAX_LENGTH} characters`);
    if (!EMAIL_SHAPE.test(value) || value.indexOf('@') > LOCAL_PART_MAX_LENGTH || value.includes('..')) {
      return invalid('email', 'must be a valid email address');
    }
    return valid(new Email(value));
  }

  /** Rebuilds an address that was validated before it was stored. */
  static fromTrusted(value: string): Email {
    return new Email(value);
  }

  get localPart(): string {
    return this.value.slice(0, this.value.lastIndexOf('@'));
  }

  equals(other: Email): boolean {
    return this.value === other.value;
  }
}
