import { CONTROL_CHARACTERS, type Parsed, hasLoneSurrogate, invalid, rawText, valid } from './validation.js';

export const NAME_MAX_LENGTH = 100;

/** A given name or last name: trimmed, 1 to 100 characters, no control characters. */
export class PersonName {
  private constructor(readonly value: string) {}

  static parse(field: string, input: unknown): Parsed<PersonName> {
    const raw = rawText(field, input);
    if (!raw.ok) return raw;
    if (hasLoneSurrogate(raw.value)) return invalid(field, 'INVALID_CHARACTERS', 'must be valid Unicode text');
    const value = raw.value.trim().normalize('NFC');
    if (value.length === 0) return invalid(field, 'REQUIRED', 'is required');
    if ([...value].length > NAME_MAX_LENGTH) return invalid(field, 'TOO_LONG', `must be at most ${NAME_MAX_LENGTH} characters`);
    if (CONTROL_CHARACTERS.test(value)) return invalid(field, 'INVALID_CHARACTERS', 'must not contain control characters');
    return valid(new PersonName(value));
  }

  static fromTrusted(value: string): PersonName {
    return new PersonName(value);
  }
}
