import { defineOperation } from '../shared/operation.js';
import type { JsonSchema } from '../shared/yup-json-schema.js';

const sessionEntry: JsonSchema = {
  type: 'object',
  required: ['id', 'createdAt', 'lastUsedAt', 'expiresAt', 'clientIp', 'userAgent', 'current'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', format: 'uuid' },
    createdAt: { type: 'string', format: 'date-time', description: 'Sign-up or sign-in' },
    lastUsedAt: { type: 'string', format: 'date-time', description: 'Last refresh' },
    expiresAt: { type: 'string', format: 'date-time', description: 'When it ends unless refreshed (idle or absolute deadline)' },
    clientIp: { type: ['string', 'null'] },
    userAgent: { type: ['string', 'null'] },
    current: { type: 'boolean', description: 'The session of the token that asked' },
  },
};

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
    sessions: (await listSessions.execute({ principal })).map((s) => ({
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      lastUsedAt: s.lastUsedAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
      clientIp: s.clientIp,
      userAgent: s.userAgent,
      current: s.current,
    })),
  }),
});
