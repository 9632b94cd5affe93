import { withApiNames } from '../shared/api-names.js';
import { sessionResource } from '../shared/session-resource.js';
import { ADMIN_USER_DETAILS, USER_ID_PARAMS } from '../shared/admin-resource.js';
import { componentRef } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';

export const adminGetUser = defineOperation({
  method: 'GET',
  path: '/admin/users/:id',
  operationId: 'adminGetUser',
  summary: 'One account with its sessions, second factor, passkeys and identities (admin, users:read)',
  tag: 'admin',
  auth: 'api-key',
  scope: 'users:read',
  hashes: false,
  params: USER_ID_PARAMS,
  success: { status: 200, message: 'User retrieved successfully', description: 'The account; never a secret', data: componentRef('AdminUserDetails') },
  schemas: [ADMIN_USER_DETAILS],
  errors: ['USER_NOT_FOUND', 'STORE_UNAVAILABLE'],
  run: async ({ params }, { adminGetUser }) => {
    const details = await adminGetUser.execute({ userId: params['id'] ?? '' });
    const { user, sessions, secondFactor, records } = details;
    return { user, sessions: sessions.map(sessionResource), secondfactor: { enrolled: secondFactor.enrolled, recoverycodesleft: secondFactor.recoveryCodesLeft }, records: withApiNames(records) };
  },
});
