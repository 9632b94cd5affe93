import { activityEntrySchema, adminActivityEntrySchema } from './shared/activity-resource.js';
import { activityTypesWith } from './shared/activity-types.js';
import { USER_REF, componentRef, namedSchema } from './shared/openapi-schemas.js';
import { sessionEntry, sessionSchema } from './shared/session-resource.js';
import type { JsonSchema } from './shared/yup-json-schema.js';

/*
 * Beside the document's assembly (openapi.ts), not in shared/: the operations refer to these components by name
 * (componentRef) and never import the resources through them, which keeps the HTTP layer's import chains short.
 */

const nextcursor: JsonSchema = { type: ['string', 'null'], description: 'The cursor of the next page; null on the last page' };

/**
 * The resources and `data` payloads clients handle, each a named component so that every operation answering one
 * refers to the same schema (a generated client gets one `AuthResult`, not one per operation). An activity entry's
 * `type` is one of the core's or of `activityTypes`, the event types the capabilities show in the activity.
 */
export const resourceSchemas = (activityTypes: readonly string[] = []): readonly JsonSchema[] => [
  namedSchema('AuthResult', {
    description: '`data` of every answer that signs a session in: the user, an access token, a refresh token and its lifetime.',
    type: 'object',
    required: ['user', 'accesstoken', 'refreshtoken', 'expiresin'],
    additionalProperties: false,
    properties: {
      user: { $ref: USER_REF },
      accesstoken: { type: 'string', description: 'ES256 JWT; send as Authorization: Bearer <accesstoken>' },
      refreshtoken: { type: 'string', description: 'Opaque; POST it to /auth/refresh for new tokens. Rotated on every refresh' },
      expiresin: { type: 'integer', minimum: 1, description: 'Lifetime of the access token, in seconds' },
    },
  }),
  namedSchema('UserResult', {
    description: '`data` of an answer that carries the account.',
    type: 'object',
    required: ['user'],
    additionalProperties: false,
    properties: { user: { $ref: USER_REF } },
  }),
  namedSchema('Accepted', { description: '`data` of an accepted request (202): empty.', type: 'object', additionalProperties: false }),
  namedSchema('Session', { description: 'A signed-in device.', ...sessionSchema }),
  namedSchema('SessionEntry', { description: 'A signed-in device in the list of devices, the caller\'s own marked current.', ...sessionEntry }),
  namedSchema('SessionPage', {
    description: 'One page of live sessions, newest first.',
    type: 'object',
    required: ['sessions', 'nextcursor'],
    additionalProperties: false,
    properties: { sessions: { type: 'array', items: componentRef('SessionEntry') }, nextcursor },
  }),
  namedSchema('ActivityEvent', { description: 'One entry of the account\'s security activity.', ...activityEntrySchema(activityTypesWith(activityTypes)) }),
  namedSchema('ActivityPage', {
    description: 'One page of security activity, newest first.',
    type: 'object',
    required: ['events', 'nextcursor'],
    additionalProperties: false,
    properties: { events: { type: 'array', items: componentRef('ActivityEvent') }, nextcursor },
  }),
  namedSchema('AdminActivityEvent', { description: 'One entry of an account\'s activity as an operator reads it: who acted, when an operator did.', ...adminActivityEntrySchema(activityTypesWith(activityTypes)) }),
  namedSchema('AdminActivityPage', {
    description: "One page of an account's activity, newest first, for operators.",
    type: 'object',
    required: ['events', 'nextcursor'],
    additionalProperties: false,
    properties: { events: { type: 'array', items: componentRef('AdminActivityEvent') }, nextcursor },
  }),
];
