import { token } from '../../di-token.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { OpenedSession } from '../../shared/auth-result.js';

/**
 * Social sign-in as sign-in pages outside this capability use it (the OpenID provider's): which providers there are,
 * whether a flow may return to a page, and the sign-in a flow's one-time code stands for, as `POST /auth/oauth/token`
 * makes it (the same use case: the code spent once, PKCE, the account's second factor asked when it has one).
 */
export interface SocialSignIn {
  /** The configured providers' names (OAUTH_PROVIDERS), in order. */
  readonly providers: readonly string[];
  /** Whether a flow may return to `url` (one of OAUTH_REDIRECT_URLS, in scheme, host, port and path). */
  returnsTo(url: string): boolean;
  /** The account the code signs in, or the challenge of its second factor. Throws what the use case throws. */
  redeem(code: string, codeVerifier: string, metadata: RequestMetadata): Promise<OpenedSession | { readonly mfaToken: string }>;
}

export const SOCIAL_SIGN_IN = token<SocialSignIn>('SocialSignIn');
