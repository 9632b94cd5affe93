import { defineOperation } from '../shared/operation.js';
import { sessionEntry, sessionResource } from '../shared/session-resource.js';

export const listSessions = defineOperation({
  method: 'GET',
  path: '/auth/sessions',
  operationId: 'listSessions',
  summary: 'The signed-in devices of the account: live sessions, newest first',
  tag: 'sessions',
  auth: 'bearer',
  hashes: false,
  success: {
    status: 200,
    message: 'Sessions retrieved successfully',
    description: 'Live sessions, exactly one of them current',
    data: { type: 'object', required: ['sessions'], additionalProperties: false, properties: { sessions: { type: 'array', items: sessionEntry } } },
  },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ principal }, { listSessions }) => ({
    sessions: (await listSessions.execute({ principal })).map((session) => ({ ...sessionResource(session), current: session.current })),
  }),
});
