import { PlainPassword } from '../../src/domain/password.js';
import type { Parsed } from '../../src/domain/validation.js';

/** The value of a parse that must succeed (a fixture); throws, naming the issues, when it does not. */
export const valueOf = <T>(parsed: Parsed<T>): T => {
  if (!parsed.ok) throw new Error(`fixture does not parse: ${JSON.stringify(parsed.issues)}`);
  return parsed.value;
};

/** A PlainPassword fixture. */
export const aPassword = (raw: string): PlainPassword => valueOf(PlainPassword.parse(raw));
