import { ApplicationError } from '../errors.js';

/** The API keys' own error codes (their manifest declares where each is answered). */
export type ApiKeyErrorCode = 'API_KEY_NOT_FOUND' | 'ACCOUNT_NOT_FOUND';

/** No API key has this id, or it is revoked already. */
export class ApiKeyNotFound extends ApplicationError<ApiKeyErrorCode> {
  readonly code = 'API_KEY_NOT_FOUND';

  constructor() {
    super('API key not found', [{ field: 'id', code: 'UNKNOWN', message: 'no live API key has this id' }]);
  }
}

/** No account has this address (`npm run admin -- grant-operator | revoke-operator`). */
export class AccountNotFound extends ApplicationError<ApiKeyErrorCode> {
  readonly code = 'ACCOUNT_NOT_FOUND';

  constructor() {
    super('Account not found', [{ field: 'email', code: 'UNKNOWN', message: 'no account has this address' }]);
  }
}
