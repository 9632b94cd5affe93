import { ApplicationError } from '../errors.js';

/** The social sign-in's own error codes (its manifest's `errors`; its HTTP operations answer them by their rows). */
export type SocialSignInErrorCode = 'PROVIDER_NOT_FOUND' | 'IDENTITY_NOT_FOUND';

/** No identity provider of this name is configured. */
export class ProviderNotFound extends ApplicationError<SocialSignInErrorCode> {
  readonly code = 'PROVIDER_NOT_FOUND';

  constructor() {
    super('Identity provider not found', [{ field: 'provider', code: 'NOT_ALLOWED', message: 'is not a configured identity provider' }]);
  }
}

/** No provider identity of the caller has this id (another account's looks the same). */
export class IdentityNotFound extends ApplicationError<SocialSignInErrorCode> {
  readonly code = 'IDENTITY_NOT_FOUND';

  constructor() {
    super('Identity not found', [{ field: null, message: 'no such linked identity' }]);
  }
}

/** Why a provider's flow ended without a profile, as the app is told (`redirect_to?error=`). */
export type ProviderRefusal = 'access_denied' | 'invalid_response' | 'temporarily_unavailable' | 'login_required';

/** A provider's flow that ended without a profile: the provider refused, answered wrongly, or was unreachable. */
export class ProviderFailed extends Error {
  constructor(readonly reason: ProviderRefusal) {
    super(`The identity provider's flow failed: ${reason}`);
    this.name = 'ProviderFailed';
  }
}
