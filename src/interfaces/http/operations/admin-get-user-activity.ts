import { ACTIVITY_PAGE_DEFAULT, ACTIVITY_PAGE_MAX } from '../../../application/registry.js';
import { adminActivityResource } from '../shared/activity-resource.js';
import { USER_ID_PARAMS } from '../shared/admin-resource.js';
import { componentRef } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { pageQuerySchema, parsePageQuery } from '../shared/page-query.js';

export const adminGetUserActivity = defineOperation({
  method: 'GET',
  path: '/admin/users/:id/activity',
  operationId: 'adminGetUserActivity',
  summary: "An account's activity, newest first, naming the operator who acted (admin, users:read)",
  tag: 'admin',
  auth: 'api-key',
  scope: 'users:read',
  hashes: false,
  params: USER_ID_PARAMS,
  query: pageQuerySchema(ACTIVITY_PAGE_MAX, ACTIVITY_PAGE_DEFAULT),
  success: {
    status: 200,
    message: 'Account activity retrieved successfully',
    description: "One page of the account's activity (what its owner reads at GET /auth/me/activity, and who acted when an operator did); nextcursor is null on the last page",
    data: componentRef('AdminActivityPage'),
  },
  errors: ['USER_NOT_FOUND', 'INVALID_INPUT', 'INVALID_CURSOR', 'STORE_UNAVAILABLE'],
  run: async ({ params, query }, { adminGetUserActivity }) => {
    const page = await adminGetUserActivity.execute({ userId: params['id'] ?? '', ...parsePageQuery(query, ACTIVITY_PAGE_MAX) });
    return { events: page.entries.map(adminActivityResource), nextcursor: page.nextCursor };
  },
});
