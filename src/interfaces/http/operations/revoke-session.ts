import { defineOperation } from '../shared/operation.js';

export const revokeSession = defineOperation({
  method: 'DELETE',
  path: '/auth/sessions/:id',
  operationId: 'revokeSession',
  summary: 'Sign one device out, by session id',
  tag: 'sessions',
  auth: 'bearer',
  hashes: false,
  params: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'A session id from GET /auth/sessions' } } },
  success: { status: 204, description: 'The session ended' },
  errors: ['STEP_UP_REQUIRED', 'SESSION_NOT_FOUND', 'STORE_UNAVAILABLE'],
  run: ({ principal, params, meta }, { revokeSession }) => revokeSession.execute({ principal, sessionId: params['id'] ?? '', metadata: meta }),
});
