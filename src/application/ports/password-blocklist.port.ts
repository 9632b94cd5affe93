import type { PlainPassword } from '../../domain/password.js';
import { token } from '../di-token.js';

/** The passwords too common to be chosen, whatever their case. */
export interface PasswordBlocklist {
  /**
   * True when the password (already NFKC-normalised by PlainPassword) is on the list, compared case-insensitively;
   * false otherwise, including for any password the list does not know. Pure and idempotent; never throws.
   */
  isCommon(password: PlainPassword): boolean;
}

export const PASSWORD_BLOCKLIST = token<PasswordBlocklist>('PasswordBlocklist');
