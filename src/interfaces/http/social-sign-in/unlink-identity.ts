import { SOCIAL_SIGN_IN_ERRORS } from './errors.js';
import { defineSocialOperation } from './define-operation.js';

export const unlinkIdentity = defineSocialOperation({
  method: 'DELETE',
  path: '/auth/identities/:id',
  operationId: 'unlinkIdentity',
  summary: 'Unlink a provider identity (step-up when a second factor is enrolled; never the last way to sign in)',
  tag: 'social',
  auth: 'bearer',
  hashes: false,
  params: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'An identity id from GET /auth/identities' } } },
  success: { status: 204, description: 'Unlinked: it signs in no more' },
  errors: ['STEP_UP_REQUIRED', 'LAST_SIGN_IN_METHOD', 'STORE_UNAVAILABLE'],
  ownErrors: { IDENTITY_NOT_FOUND: SOCIAL_SIGN_IN_ERRORS.IDENTITY_NOT_FOUND },
  run: ({ principal, params, meta }, { unlinkIdentity }) => unlinkIdentity.execute({ principal, id: params['id'] ?? '', metadata: meta }),
});
