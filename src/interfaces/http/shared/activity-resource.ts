import type { ActivityEntry } from '../../../application/ports/activity-read-model.port.js';
import { ACTIVITY_REASONS, ACTIVITY_TYPES } from './activity-types.js';
import type { JsonSchema } from './yup-json-schema.js';

/** An activity entry as the API shows it. */
export const activityResource = (entry: ActivityEntry) => ({
  type: entry.type,
  occurredat: entry.occurredAt.toISOString(),
  clientip: entry.clientIp,
  useragent: entry.userAgent,
  ...(entry.reason === undefined ? {} : { reason: entry.reason }),
  ...(entry.by === undefined ? {} : { by: entry.by }),
});

/** Its JSON Schema, its `type` one of `types` (the core's and the capabilities' activity types). */
export const activityEntrySchema = (types: readonly string[] = ACTIVITY_TYPES): JsonSchema => ({
  type: 'object',
  required: ['type', 'occurredat', 'clientip', 'useragent'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: [...types], description: 'The snake_case name of the event' },
    occurredat: { type: 'string', format: 'date-time' },
    clientip: { type: ['string', 'null'], description: 'The address of the request; null when unknown or done by an administrator' },
    useragent: { type: ['string', 'null'], maxLength: 512, description: 'The user agent of the request; null when unknown or done by an administrator' },
    reason: { type: 'string', enum: [...ACTIVITY_REASONS], description: 'Only on failed sign-ins and ended sessions' },
    by: { type: 'string', enum: ['administrator'], description: "Only on what an operator did (the admin API, the command line): the operator's address and user agent are never shown" },
  },
});

/** An entry as an operator reads it (GET /admin/users/:id/activity): who acted, when an operator did. */
export const adminActivityResource = (entry: ActivityEntry & { readonly actorEmail?: string }) => ({
  ...activityResource(entry),
  ...(entry.actor === undefined ? {} : { actor: entry.actor }),
  ...(entry.actorEmail === undefined ? {} : { actoremail: entry.actorEmail }),
});

/** Its JSON Schema. */
export const adminActivityEntrySchema = (types: readonly string[] = ACTIVITY_TYPES): JsonSchema => {
  const entry = activityEntrySchema(types);
  return {
    ...entry,
    properties: {
      ...(entry['properties'] as Record<string, JsonSchema>),
      actor: { type: 'string', pattern: '^(key:.+|operator:.+|cli)$', examples: ['operator:2b7c4c1e-6f59-4f1b-9d2a-4c1b8f0e6a11'], description: 'Who acted, when an operator did: `key:<id>` (an API key), `operator:<account id>` (an operator signed in), `cli` (the command line)' },
      actoremail: { type: 'string', format: 'email', description: "The operator's address now, when an operator signed in did it" },
    },
  };
};
