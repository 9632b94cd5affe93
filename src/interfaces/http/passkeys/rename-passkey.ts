import { PASSKEYS_ERRORS } from './errors.js';
import { object } from 'yup';
import { definePasskeysOperation } from './define-operation.js';
import { passkeyResource, passkeySchema } from './passkey-resource.js';
import { text } from '../shared/request-body.js';

export const renamePasskey = definePasskeysOperation({
  method: 'PATCH',
  path: '/auth/passkeys/:id',
  operationId: 'renamePasskey',
  summary: 'Rename a passkey',
  tag: 'passkeys',
  auth: 'bearer',
  hashes: false,
  params: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'A passkey id from GET /auth/passkeys' } } },
  body: { schema: object({ name: text() }), docs: { name: { minLength: 1, maxLength: 64, description: 'Trimmed; no control characters' } } },
  success: { status: 200, message: 'Passkey renamed', description: 'Renamed', data: { type: 'object', required: ['passkey'], additionalProperties: false, properties: { passkey: passkeySchema } } },
  errors: ['STORE_UNAVAILABLE'],
  ownErrors: { PASSKEY_NOT_FOUND: PASSKEYS_ERRORS.PASSKEY_NOT_FOUND },
  run: async ({ principal, params, body }, { renamePasskey }) => ({
    passkey: passkeyResource(await renamePasskey.execute({ principal, id: params['id'] ?? '', name: body.name })),
  }),
});
