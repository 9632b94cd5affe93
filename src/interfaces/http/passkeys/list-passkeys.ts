import { definePasskeysOperation } from './define-operation.js';
import { passkeyResource, passkeySchema } from './passkey-resource.js';

export const listPasskeys = definePasskeysOperation({
  method: 'GET',
  path: '/auth/passkeys',
  operationId: 'listPasskeys',
  summary: "The account's passkeys, oldest first",
  tag: 'passkeys',
  auth: 'bearer',
  hashes: false,
  success: {
    status: 200,
    message: 'Passkeys retrieved successfully',
    description: 'At most 20',
    data: { type: 'object', required: ['passkeys'], additionalProperties: false, properties: { passkeys: { type: 'array', items: passkeySchema } } },
  },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ principal }, { listPasskeys }) => ({ passkeys: (await listPasskeys.execute({ userId: principal.userId })).map(passkeyResource) }),
});
