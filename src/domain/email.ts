import { type Parsed, hasLoneSurrogate, invalid, rawText, valid } from './validation.js';

export const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART_MAX_LENGTH = 64;
/**
 * What a reader cannot see, or sees as nothing: controls (Cc), format characters such as zero-width ones (Cf), line
 * and paragraph separators, unassigned and private-use code points, every Default_Ignorable_Code_Point (combining
 * grapheme joiner U+034F, Mongolian variation selectors U+180B.., variation selectors U+FE00.., the Hangul fillers
 * U+115F, U+1160, U+3164, U+FFA0, ...), and the blank Braille pattern U+2800, which renders as a space.
 */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cn}\p{Co}\p{Default_Ignorable_Code_Point}\u115f\u1160\u3164\uffa0\u2800]/u;

/**
 * Whether the domain survives IDNA (UTS #46) as WHATWG URL host parsing applies it, the conversion a mail client makes
 * before it looks the domain up: a domain that conversion refuses names no mailbox this service could reach.
 */
const convertsToAscii = (domain: string): boolean => {
  try {
    return new URL(`http://${domain}/`).hostname.length > 0;
  } catch {
    return false;
  }
};
const EMAIL_SHAPE = /^[^\s@"(),:;<>[\\\]]+@(?:[a-z0-9\p{L}\p{N}](?:[a-z0-9\p{L}\p{N}-]*[a-z0-9\p{L}\p{N}])?\.)+[a-z\p{L}]{2,}$/u;

/** An e-mail address, normalised (trimmed, Unicode NFC, lower case) before any rule is applied. */
export class Email {
  private constructor(readonly value: string) {}

  static normalise(raw: string): string {
    return raw.trim().normalize('NFC').toLowerCase();
  }

  /** `field`: the name the issues carry (`email`, or `newemail` for a change of address). */
  static parse(input: unknown, field = 'email'): Parsed<Email> {
    const raw = rawText(field, input);
    if (!raw.ok) return raw;
    if (hasLoneSurrogate(raw.value)) return invalid(field, 'must be valid Unicode text');
    const value = Email.normalise(raw.value);
    if (value.length === 0) return invalid(field, 'is required');
    if (UNSEEN.test(value)) return invalid(field, 'must not contain control, invisible or unassigned characters');
    if (value.length > EMAIL_MAX_LENGTH) return invalid(field, `must be at most ${EMAIL_MAX_LENGTH} characters`);
    if (!EMAIL_SHAPE.test(value) || value.indexOf('@') > LOCAL_PART_MAX_LENGTH || value.includes('..') || !convertsToAscii(value.slice(value.lastIndexOf('@') + 1))) {
      return invalid(field, 'must be a valid email address');
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
