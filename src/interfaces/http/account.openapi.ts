import { ACTIVITY_REASONS, ACTIVITY_TYPES } from './shared/activity-types.js';
import type { FastifySchema } from 'fastify';
import { object } from 'yup';
import { NAME_MAX_LENGTH } from '../../domain/person-name.js';
import { ACTIVITY_PAGE_DEFAULT, ACTIVITY_PAGE_MAX } from '../../application/registry.js';
import { REQUEST_ID_HEADERS } from './auth.openapi.js';
import type { ErrorCode } from './shared/error-table.js';
import { text } from './shared/request-body.js';
import { BEARER_SECURITY, USER_REF, errorResponses } from './shared/openapi-schemas.js';
import { yupToJsonSchema } from './shared/yup-json-schema.js';
import type { JsonSchema } from './shared/yup-json-schema.js';

const NO_STORE = {
  'cache-control': { type: 'string', const: 'no-store', description: 'Never cached: the answer is personal' },
  pragma: { type: 'string', const: 'no-cache', description: 'For HTTP/1.0 caches' },
};

const envelopeOf = (description: string, message: string, data: JsonSchema): JsonSchema => ({
  description,
  headers: NO_STORE,
  type: 'object',
  required: ['message', 'data'],
  additionalProperties: false,
  properties: { message: { type: 'string', examples: [message] }, data },
});

const activityEntry: JsonSchema = {
  type: 'object',
  required: ['type', 'occurredAt', 'clientIp', 'userAgent'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: [...ACTIVITY_TYPES], description: 'The snake_case name of the event' },
    occurredAt: { type: 'string', format: 'date-time' },
    clientIp: { type: ['string', 'null'] },
    userAgent: { type: ['string', 'null'], maxLength: 512 },
    reason: { type: 'string', enum: [...ACTIVITY_REASONS], description: 'Only on failed sign-ins and ended sessions' },
  },
};

const activityQuery: JsonSchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: ACTIVITY_PAGE_MAX, default: ACTIVITY_PAGE_DEFAULT, description: 'Page size' },
    cursor: { type: 'string', minLength: 1, maxLength: 512, description: 'The nextCursor of the previous page (opaque)' },
  },
};

/** Errors every bearer-authenticated route may answer. */
const authenticatedErrors = (...codes: ErrorCode[]) =>
  errorResponses('MISSING_TOKEN', 'INVALID_TOKEN', 'RATE_LIMITED', 'INTERNAL', 'STORE_UNAVAILABLE', 'SHUTTING_DOWN', ...codes);

export const currentUserRouteSchema: FastifySchema = {
  operationId: 'getCurrentUser',
  summary: 'The account the bearer token belongs to',
  tags: ['account'],
  security: BEARER_SECURITY,
  headers: REQUEST_ID_HEADERS,
  response: {
    200: envelopeOf('The signed-in user', 'User retrieved successfully', {
      type: 'object',
      required: ['user'],
      additionalProperties: false,
      properties: { user: { $ref: USER_REF } },
    }),
    ...authenticatedErrors(),
  },
};

export const activityRouteSchema: FastifySchema = {
  operationId: 'getAccountActivity',
  summary: "The account's own security activity, newest first",
  tags: ['account'],
  security: BEARER_SECURITY,
  headers: REQUEST_ID_HEADERS,
  querystring: activityQuery,
  response: {
    200: envelopeOf('One page of activity; nextCursor is null on the last page', 'Account activity retrieved successfully', {
      type: 'object',
      required: ['events', 'nextCursor'],
      additionalProperties: false,
      properties: { events: { type: 'array', items: activityEntry }, nextCursor: { type: ['string', 'null'] } },
    }),
    ...authenticatedErrors('INVALID_INPUT', 'INVALID_CURSOR'),
  },
};

export const profileSchema = object({ name: text(), lastname: text() });

const nameRule = { minLength: 1, maxLength: NAME_MAX_LENGTH, description: 'Trimmed, no control characters' };

export const changeProfileRouteSchema: FastifySchema = {
  operationId: 'changeProfile',
  summary: "Change the signed-in account's name and last name",
  tags: ['account'],
  security: BEARER_SECURITY,
  headers: REQUEST_ID_HEADERS,
  body: yupToJsonSchema(profileSchema, { name: nameRule, lastname: nameRule }),
  response: {
    200: envelopeOf('The account as changed (a ProfileChanged event is recorded when something changed)', 'User updated successfully', {
      type: 'object',
      required: ['user'],
      additionalProperties: false,
      properties: { user: { $ref: USER_REF } },
    }),
    ...authenticatedErrors('INVALID_INPUT', 'MALFORMED_BODY', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'),
  },
};
