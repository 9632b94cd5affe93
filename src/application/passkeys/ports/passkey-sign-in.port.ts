import { token } from '../../di-token.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { OpenedSession } from '../../shared/auth-result.js';

/**
 * A sign-in with a passkey, as `POST /auth/sign-in/passkey` makes it (the same use case: the challenge spent once,
 * the counter, user verification), for sign-in pages outside this capability (the OpenID provider's). Throws what
 * that use case throws (PasskeyRejected, InvalidInput).
 */
export interface PasskeySignIn {
  /** The origins an assertion may be made on (WEBAUTHN_ORIGINS): a page elsewhere cannot use passkeys. */
  readonly origins: readonly string[];
  /** The account whose passkey answered (`navigator.credentials.get`, as JSON); its session's `amr` is ["webauthn"]. */
  complete(response: unknown, metadata: RequestMetadata): Promise<OpenedSession>;
}

export const PASSKEY_SIGN_IN = token<PasskeySignIn>('PasskeySignIn');
