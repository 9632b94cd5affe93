import type { SessionView } from '../../../application/ports/session-read-model.port.js';
import type { JsonSchema } from './yup-json-schema.js';

/** A signed-in device as the API shows it. */
export const sessionSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'createdat', 'lastusedat', 'expiresat', 'clientip', 'useragent'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', format: 'uuid' },
    createdat: { type: 'string', format: 'date-time', description: 'Sign-up or sign-in' },
    lastusedat: { type: 'string', format: 'date-time', description: 'Last refresh' },
    expiresat: { type: 'string', format: 'date-time', description: 'When it ends unless refreshed (idle or absolute deadline)' },
    clientip: { type: ['string', 'null'] },
    useragent: { type: ['string', 'null'] },
  },
};

/** A signed-in device in the list of devices, which marks the caller's own `current`. */
export const sessionEntry: JsonSchema = {
  ...sessionSchema,
  required: [...(sessionSchema['required'] as string[]), 'current'],
  properties: { ...(sessionSchema['properties'] as Record<string, JsonSchema>), current: { type: 'boolean', description: 'The session of the token that asked' } },
};

/** A session view as the API shows it (dates as ISO 8601). */
export const sessionResource = (session: SessionView) => ({
  id: session.id,
  createdat: session.createdAt.toISOString(),
  lastusedat: session.lastUsedAt.toISOString(),
  expiresat: session.expiresAt.toISOString(),
  clientip: session.clientIp,
  useragent: session.userAgent,
});
