import type { PlainPassword } from '../../domain/password.js';
import { token } from '../di-token.js';

/** One-way password hashing. The hash is opaque to everything but the adapter. */
export interface PasswordHasher {
  /** Returns a new salted hash of the password with the configured parameters. */
  hash(password: PlainPassword): Promise<string>;

  /**
   * Returns true when the password matches the hash, false when it does not or the hash is not one this
   * adapter accepts (malformed, or parameters outside the accepted bounds). Never throws for a wrong password.
   */
  verify(hash: string, password: PlainPassword): Promise<boolean>;

  /**
   * Spends the same work as `verify` against a hash of no account, and returns nothing: used for unknown
   * e-mails so that they take as long as a wrong password.
   */
  verifyDummy(password: PlainPassword): Promise<void>;

  /** True when the hash was made with other parameters than the configured ones. Pure; never throws. */
  needsRehash(hash: string): boolean;
}

export const PASSWORD_HASHER = token<PasswordHasher>('PasswordHasher');
