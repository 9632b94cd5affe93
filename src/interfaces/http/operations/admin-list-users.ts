import { ADMIN_PAGE_MAX } from '../../../application/registry.js';
import { ADMIN_USER, ADMIN_USER_PAGE, ADMIN_USERS_QUERY } from '../shared/admin-resource.js';
import { componentRef } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { parsePageQuery } from '../shared/page-query.js';

export const adminListUsers = defineOperation({
  method: 'GET',
  path: '/admin/users',
  operationId: 'adminListUsers',
  summary: 'Accounts whose address starts with a prefix, in the order they were made (admin, users:read)',
  tag: 'admin',
  auth: 'api-key',
  scope: 'users:read',
  hashes: false,
  query: ADMIN_USERS_QUERY,
  success: { status: 200, message: 'Users retrieved successfully', description: 'One page of accounts', data: componentRef('AdminUserPage') },
  schemas: [ADMIN_USER, ADMIN_USER_PAGE],
  errors: ['INVALID_INPUT', 'INVALID_CURSOR', 'STORE_UNAVAILABLE'],
  run: async ({ query }, { adminListUsers }) => {
    const { query: prefix } = (query ?? {}) as Record<string, unknown>;
    const page = await adminListUsers.execute({ ...parsePageQuery(query, ADMIN_PAGE_MAX), query: typeof prefix === 'string' ? prefix : undefined });
    return { users: page.users, nextcursor: page.nextCursor };
  },
});
