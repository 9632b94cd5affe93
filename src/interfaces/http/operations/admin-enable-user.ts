import { object } from 'yup';
import { USER_ID_PARAMS } from '../shared/admin-resource.js';
import { componentRef } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';

export const adminEnableUser = defineOperation({
  method: 'POST',
  path: '/admin/users/:id/enable',
  operationId: 'adminEnableUser',
  summary: 'Enable a disabled account again; its sessions stay ended (admin, users:write)',
  tag: 'admin',
  auth: 'api-key',
  scope: 'users:write',
  hashes: false,
  params: USER_ID_PARAMS,
  body: { schema: object({}), optional: true, description: 'None needed' },
  success: { status: 200, message: 'User enabled', description: 'The account, enabled', data: componentRef('AdminUserResult') },
  errors: ['USER_NOT_FOUND', 'STORE_UNAVAILABLE'],
  run: async ({ params, principal, meta }, { adminSetDisabled }) => ({ user: await adminSetDisabled.execute({ userId: params['id'] ?? '', key: principal, metadata: meta, disabled: false }) }),
});
