import { object } from 'yup';
import { defineOperation } from '../shared/operation.js';
import { passkeyResource, passkeySchema } from '../shared/passkey-resource.js';
import { text } from '../shared/request-body.js';

export const renamePasskey = defineOperation({
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
  errors: ['PASSKEY_NOT_FOUND', 'STORE_UNAVAILABLE'],
  run: async ({ principal, params, body }, { renamePasskey }) => ({
    passkey: passkeyResource(await renamePasskey.execute({ principal, id: params['id'] ?? '', name: body.name })),
  }),
});
