import { decodePunycode } from './punycode.js';
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
 * The domain as IDNA (UTS #46) maps it, in Unicode: WHATWG URL host parsing (the conversion a mail client makes before
 * it looks the domain up) gives its ASCII form, whose `xn--` labels are decoded back. Two spellings of one domain
 * (`ｅｘａｍｐｌｅ.com`, `EXAMPLE.com`, `xn--bcher-kva.de` and `bücher.de`) give one value; null when the conversion
 * refuses the domain, which then names no mailbox this service could reach.
 */
const mappedDomain = (domain: string): string | null => {
  let ascii: string;
  try {
    ascii = new URL(`http://${domain}/`).hostname;
  } catch {
    return null;
  }
  const labels = ascii.split('.').map((label) => (label.startsWith('xn--') ? decodePunycode(label.slice(4)) : label));
  return ascii.length > 0 && labels.every((label) => label !== null) ? labels.join('.') : null;
};
/** What a domain may hold before it is mapped: letters, digits, hyphens and dots (no `%` for URL parsing to decode). */
const DOMAIN_TEXT = /^[\p{L}\p{N}\p{M}.-]+$/u;
const EMAIL_SHAPE = /^[^\s@"(),:;<>[\\\]]+@(?:[a-z0-9\p{L}\p{N}](?:[a-z0-9\p{L}\p{N}-]*[a-z0-9\p{L}\p{N}])?\.)+[a-z\p{L}]{2,}$/u;

/**
 * An e-mail address in its canonical form, the one stored, claimed unique and looked up: trimmed, Unicode NFKC (the
 * Kelvin sign U+212A is `K`, full-width letters are ASCII), lower case, and the domain as IDNA maps it; every rule
 * applies to that form, so a look-alike of a taken address is the taken address.
 */
export class Email {
  private constructor(readonly value: string) {}

  /** `field`: the name the issues carry (`email`, or `newemail` for a change of address). */
  static parse(input: unknown, field = 'email'): Parsed<Email> {
    const raw = rawText(field, input);
    if (!raw.ok) return raw;
    if (hasLoneSurrogate(raw.value)) return invalid(field, 'INVALID_CHARACTERS', 'must be valid Unicode text');
    const text = raw.value.trim().normalize('NFKC');
    if (text.length === 0) return invalid(field, 'REQUIRED', 'is required');
    if (UNSEEN.test(raw.value.trim()) || UNSEEN.test(text)) return invalid(field, 'INVALID_CHARACTERS', 'must not contain control, invisible or unassigned characters');
    const at = text.lastIndexOf('@');
    const domain = at < 0 || !DOMAIN_TEXT.test(text.slice(at + 1)) ? null : mappedDomain(text.slice(at + 1));
    const value = at < 0 ? text.toLowerCase() : `${text.slice(0, at).toLowerCase()}@${domain ?? text.slice(at + 1).toLowerCase()}`;
    if (value.length > EMAIL_MAX_LENGTH) return invalid(field, 'TOO_LONG', `must be at most ${EMAIL_MAX_LENGTH} characters`);
    if (domain === null || !EMAIL_SHAPE.test(value) || value.indexOf('@') > LOCAL_PART_MAX_LENGTH || value.includes('..')) {
      return invalid(field, 'INVALID_FORMAT', 'must be a valid email address');
    }
    return valid(new Email(value));
  }

  /**
   * An address as a provider shows it, taken as proof of a mailbox: as `parse`, and refused where normalisation
   * changes its local part beyond letter case (`\u212Aate@…` is another mailbox than `kate@…` to the mail server
   * that the provider asked, though both have the canonical form `kate@…`). The domain may be any spelling of itself.
   */
  static parseAsShown(input: unknown, field = 'email'): Parsed<Email> {
    const parsed = Email.parse(input, field);
    if (!parsed.ok || typeof input !== 'string') return parsed;
    const trimmed = input.trim();
    const local = trimmed.slice(0, trimmed.lastIndexOf('@'));
    return local.normalize('NFKC') === local && local.toLowerCase() === parsed.value.localPart ? parsed : invalid(field, 'INVALID_CHARACTERS', 'must not change under Unicode normalisation');
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
