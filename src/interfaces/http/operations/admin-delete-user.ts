import { USER_ID_PARAMS } from '../shared/admin-resource.js';
import { defineOperation } from '../shared/operation.js';

export const adminDeleteUser = defineOperation({
  method: 'DELETE',
  path: '/admin/users/:id',
  operationId: 'adminDeleteUser',
  summary: "Delete an account, as its owner's DELETE /auth/me does (admin, users:write)",
  description: 'The same erase: every session ends, every record of the account goes, its data key is destroyed (docs/account.md), and a proven address is mailed the notice.',
  tag: 'admin',
  auth: 'api-key',
  scope: 'users:write',
  hashes: false,
  params: USER_ID_PARAMS,
  success: { status: 204, description: 'The account erased' },
  errors: ['USER_NOT_FOUND', 'STORE_UNAVAILABLE'],
  run: ({ params, principal, meta }, { adminDeleteUser }) => adminDeleteUser.execute({ userId: params['id'] ?? '', key: principal, metadata: meta }),
});
