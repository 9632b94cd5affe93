import { SESSIONS_PAGE_DEFAULT, SESSIONS_PAGE_MAX } from '../../../application/registry.js';
import { componentRef } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { pageQuerySchema, parsePageQuery } from '../shared/page-query.js';
import { sessionResource } from '../shared/session-resource.js';

export const listSessions = defineOperation({
  method: 'GET',
  path: '/auth/sessions',
  operationId: 'listSessions',
  summary: 'The signed-in devices of the account: live sessions, newest first, one page at a time',
  tag: 'sessions',
  auth: 'bearer',
  hashes: false,
  query: pageQuerySchema(SESSIONS_PAGE_MAX, SESSIONS_PAGE_DEFAULT),
  success: {
    status: 200,
    message: 'Sessions retrieved successfully',
    description: 'One page of live sessions, the caller\'s marked current; nextcursor is null on the last page',
    data: componentRef('SessionPage'),
  },
  errors: ['INVALID_INPUT', 'INVALID_CURSOR', 'STORE_UNAVAILABLE'],
  run: async ({ principal, query }, { listSessions }) => {
    const page = await listSessions.execute({ principal, ...parsePageQuery(query, SESSIONS_PAGE_MAX) });
    return { sessions: page.sessions.map((session) => ({ ...sessionResource(session), current: session.current })), nextcursor: page.nextCursor };
  },
});
