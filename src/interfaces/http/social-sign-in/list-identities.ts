import { defineSocialOperation } from './define-operation.js';

const identitySchema = {
  type: 'object',
  required: ['id', 'provider', 'email', 'createdat'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: 'What DELETE /auth/identities/{id} names' },
    provider: { type: 'string', description: 'The provider, by its name in OAUTH_PROVIDERS' },
    email: { type: ['string', 'null'], description: 'The address the provider showed when it was linked (shown, never matched on)' },
    createdat: { type: 'string', format: 'date-time' },
  },
} as const;

export const listIdentities = defineSocialOperation({
  method: 'GET',
  path: '/auth/identities',
  operationId: 'listIdentities',
  summary: "The account's linked provider identities, oldest first",
  tag: 'social',
  auth: 'bearer',
  hashes: false,
  success: {
    status: 200,
    message: 'Identities retrieved successfully',
    description: 'At most 20',
    data: { type: 'object', required: ['identities'], additionalProperties: false, properties: { identities: { type: 'array', items: identitySchema } } },
  },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ principal }, { listIdentities }) => ({ identities: await listIdentities.execute({ userId: principal.userId }) }),
});
