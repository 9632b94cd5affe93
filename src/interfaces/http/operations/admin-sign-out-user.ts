import { object } from 'yup';
import { USER_ID_PARAMS } from '../shared/admin-resource.js';
import { defineOperation } from '../shared/operation.js';

export const adminSignOutUser = defineOperation({
  method: 'POST',
  path: '/admin/users/:id/sign-out',
  operationId: 'adminSignOutUser',
  summary: 'End every session of an account at once (admin, users:write)',
  tag: 'admin',
  auth: 'api-key',
  scope: 'users:write',
  hashes: false,
  params: USER_ID_PARAMS,
  body: { schema: object({}), optional: true, description: 'None needed' },
  success: { status: 204, description: 'Every session ended: their access and refresh tokens are refused' },
  errors: ['USER_NOT_FOUND', 'STORE_UNAVAILABLE'],
  run: ({ params, principal, meta }, { adminSignOutUser }) => adminSignOutUser.execute({ userId: params['id'] ?? '', key: principal, metadata: meta }),
});
