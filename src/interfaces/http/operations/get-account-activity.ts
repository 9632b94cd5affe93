import { ACTIVITY_PAGE_DEFAULT, ACTIVITY_PAGE_MAX } from '../../../application/registry.js';
import { activityResource } from '../shared/activity-resource.js';
import { componentRef } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { pageQuerySchema, parsePageQuery } from '../shared/page-query.js';

export const getAccountActivity = defineOperation({
  method: 'GET',
  path: '/auth/me/activity',
  operationId: 'getAccountActivity',
  summary: "The account's own security activity, newest first",
  tag: 'account',
  auth: 'bearer',
  hashes: false,
  query: pageQuerySchema(ACTIVITY_PAGE_MAX, ACTIVITY_PAGE_DEFAULT),
  success: {
    status: 200,
    message: 'Account activity retrieved successfully',
    description: 'One page of activity; nextcursor is null on the last page',
    data: componentRef('ActivityPage'),
  },
  errors: ['INVALID_INPUT', 'INVALID_CURSOR', 'STORE_UNAVAILABLE'],
  run: async ({ principal, query }, { getAccountActivity }) => {
    const page = await getAccountActivity.execute({ userId: principal.userId, ...parsePageQuery(query, ACTIVITY_PAGE_MAX) });
    return { events: page.entries.map(activityResource), nextcursor: page.nextCursor };
  },
});
