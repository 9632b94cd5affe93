import { USER_ID_PARAMS } from '../shared/admin-resource.js';
import { defineSecondFactorOperation } from './define-operation.js';

export const adminRemoveMfa = defineSecondFactorOperation({
  method: 'DELETE',
  path: '/admin/users/:id/mfa',
  operationId: 'adminRemoveMfa',
  summary: "Remove an account's authenticator app and recovery codes: the lost-phone case (admin, users:write)",
  description: 'Check who asks by your own means first. The owner is mailed "Two-step sign-in is off". Passkeys stay.',
  tag: 'admin',
  auth: 'api-key',
  scope: 'users:write',
  hashes: false,
  params: USER_ID_PARAMS,
  success: { status: 204, description: 'The factor and its recovery codes removed' },
  errors: ['USER_NOT_FOUND', 'MFA_NOT_ENROLLED', 'STORE_UNAVAILABLE'],
  run: ({ params, principal, meta }, { adminRemoveMfa }) => adminRemoveMfa.execute({ userId: params['id'] ?? '', key: principal, metadata: meta }),
});
