import { PASSKEYS_ERRORS } from './errors.js';
import { definePasskeysOperation } from './define-operation.js';

export const removePasskey = definePasskeysOperation({
  method: 'DELETE',
  path: '/auth/passkeys/:id',
  operationId: 'removePasskey',
  summary: 'Remove a passkey (step-up when a second factor is enrolled; never the last way to sign in)',
  tag: 'passkeys',
  auth: 'bearer',
  hashes: false,
  params: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'A passkey id from GET /auth/passkeys' } } },
  success: { status: 204, description: 'Removed: it signs in no more' },
  errors: ['STEP_UP_REQUIRED', 'LAST_SIGN_IN_METHOD', 'STORE_UNAVAILABLE'],
  ownErrors: { PASSKEY_NOT_FOUND: PASSKEYS_ERRORS.PASSKEY_NOT_FOUND },
  run: ({ principal, params, meta }, { removePasskey }) => removePasskey.execute({ principal, id: params['id'] ?? '', metadata: meta }),
});
