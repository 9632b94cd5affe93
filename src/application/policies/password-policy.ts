import type { PlainPassword } from '../../domain/password.js';
import { type Parsed, invalid } from '../../domain/validation.js';
import type { PasswordBlocklist } from '../ports/password-blocklist.port.js';

/**
 * The part of the password policy that needs a port: a new password that passed the domain's own rules is also
 * refused when it is too common. Returns the parse result unchanged otherwise, so its issues join the others.
 */
export const uncommon = (blocklist: PasswordBlocklist, password: Parsed<PlainPassword>, field = 'password'): Parsed<PlainPassword> =>
  password.ok && blocklist.isCommon(password.value) ? invalid(field, 'TOO_COMMON', 'is too common') : password;
