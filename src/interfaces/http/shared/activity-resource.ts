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
