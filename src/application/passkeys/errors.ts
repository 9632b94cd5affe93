import { ApplicationError } from '../errors.js';

/** The passkeys' own error codes (their manifest's `errors`; their HTTP operations answer them by their rows). */
export type PasskeysErrorCode = 'PASSKEY_NOT_FOUND';

/** No passkey of the caller has this id (another account's passkey looks the same). */
export class PasskeyNotFound extends ApplicationError<PasskeysErrorCode> {
  readonly code = 'PASSKEY_NOT_FOUND';

  constructor() {
    super('Passkey not found', [{ field: null, message: 'no such passkey' }]);
  }
}
