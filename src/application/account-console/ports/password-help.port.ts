import { token } from '../../di-token.js';

/**
 * Where a person who cannot sign in asks for a reset link (the account console's *Forgot your password?* page), for
 * sign-in pages outside the console (the OpenID provider's) to link to.
 */
export interface PasswordHelp {
  /** The page's path at the service's own origin. */
  readonly path: string;
}

export const PASSWORD_HELP = token<PasswordHelp>('PasswordHelp');
