import { object } from 'yup';
import { ADMIN_USER_RESULT, USER_ID_PARAMS } from '../shared/admin-resource.js';
import { componentRef } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';

export const adminDisableUser = defineOperation({
  method: 'POST',
  path: '/admin/users/:id/disable',
  operationId: 'adminDisableUser',
  summary: 'Disable an account: every session ends at once, every sign-in is refused (admin, users:write)',
  description: 'Every way in then answers as a wrong credential would (401 to a password sign-in, the right password included), so that a disabled account tells nobody its password was right. Idempotent.',
  tag: 'admin',
  auth: 'api-key',
  scope: 'users:write',
  hashes: false,
  params: USER_ID_PARAMS,
  body: { schema: object({}), optional: true, description: 'None needed' },
  success: { status: 200, message: 'User disabled', description: 'The account, disabled', data: componentRef('AdminUserResult') },
  schemas: [ADMIN_USER_RESULT],
  errors: ['USER_NOT_FOUND', 'STORE_UNAVAILABLE'],
  run: async ({ params, principal, meta }, { adminSetDisabled }) => ({ user: await adminSetDisabled.execute({ userId: params['id'] ?? '', key: principal, metadata: meta, disabled: true }) }),
});
