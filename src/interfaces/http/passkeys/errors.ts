import type { PasskeysErrorCode } from '../../../application/passkeys/errors.js';
import type { ErrorRow } from '../shared/error-table.js';

/** How the passkeys' own codes are answered (each operation declares those it can end in: `ownErrors`). */
export const PASSKEYS_ERRORS: { readonly [C in PasskeysErrorCode]: ErrorRow } = {
  PASSKEY_NOT_FOUND: {
    status: 404, message: 'Passkey not found', issues: [], outcome: 'error',
    description: "No passkey of the caller has this id (another account's answers the same)",
  },
};
