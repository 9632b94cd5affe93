import { userData } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';

export const getCurrentUser = defineOperation({
  method: 'GET',
  path: '/auth/me',
  operationId: 'getCurrentUser',
  summary: 'The account the bearer token belongs to',
  tag: 'account',
  auth: 'bearer',
  hashes: false,
  success: { status: 200, message: 'User retrieved successfully', description: 'The signed-in user', data: userData },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ principal }, { getCurrentUser }) => ({ user: await getCurrentUser.execute({ userId: principal.userId }) }),
});
