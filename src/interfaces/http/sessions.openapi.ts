import type { FastifySchema } from 'fastify';
import { object } from 'yup';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/password.js';
import { SIGN_OUT_SCOPES } from '../../application/registry.js';
import { NO_STORE_HEADERS, REQUEST_ID_HEADERS, sessionTokensData } from './auth.openapi.js';
import { text } from './shared/request-body.js';
import { BEARER_SECURITY, USER_REF, errorResponses } from './shared/openapi-schemas.js';
import { type JsonSchema, yupToJsonSchema } from './shared/yup-json-schema.js';

export const refreshSchema = object({ refreshtoken: text() });
export const changePasswordSchema = object({ currentpassword: text(), newpassword: text() });

const signedInErrors = ['MISSING_TOKEN', 'INVALID_TOKEN', 'RATE_LIMITED', 'INTERNAL', 'STORE_UNAVAILABLE', 'SHUTTING_DOWN'] as const;

const envelope = (description: string, message: string, data: JsonSchema): JsonSchema => ({
  description,
  headers: NO_STORE_HEADERS,
  type: 'object',
  required: ['message', 'data'],
  additionalProperties: false,
  properties: { message: { type: 'string', examples: [message] }, data },
});

const noContent = (description: string): JsonSchema => ({ description, type: 'null' });

export const refreshRouteSchema: FastifySchema = {
  operationId: 'refreshSession',
  summary: 'Continue a session: rotate the refresh token, get a new access token',
  tags: ['sessions'],
  headers: REQUEST_ID_HEADERS,
  body: yupToJsonSchema(refreshSchema, { refreshtoken: { minLength: 1, description: 'The refresh token of the latest sign-in or refresh' } }),
  response: {
    200: envelope('New tokens; the refresh token presented is now the previous one', 'Token refreshed successfully', sessionTokensData),
    ...errorResponses('INVALID_INPUT', 'MALFORMED_BODY', 'INVALID_REFRESH_TOKEN', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'),
    ...errorResponses('RATE_LIMITED', 'INTERNAL', 'OVERLOADED', 'STORE_UNAVAILABLE', 'SHUTTING_DOWN'),
  },
};

export const signOutRouteSchema: FastifySchema = {
  operationId: 'signOut',
  summary: 'Sign out: this session (local), every other one (others), or all (global)',
  tags: ['sessions'],
  security: BEARER_SECURITY,
  headers: REQUEST_ID_HEADERS,
  body: {
    type: 'object',
    properties: { scope: { type: 'string', enum: [...SIGN_OUT_SCOPES], default: 'local' } },
    description: 'Optional: without a body (and then without Content-Type) the scope is local',
  },
  response: { 204: noContent('Signed out: the sessions and their tokens are refused from now on'), ...errorResponses(...signedInErrors, 'INVALID_INPUT', 'MALFORMED_BODY', 'UNSUPPORTED_MEDIA_TYPE') },
};

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

export const listSessionsRouteSchema: FastifySchema = {
  operationId: 'listSessions',
  summary: 'The signed-in devices of the account: live sessions, newest first',
  tags: ['sessions'],
  security: BEARER_SECURITY,
  headers: REQUEST_ID_HEADERS,
  response: {
    200: envelope('Live sessions, exactly one of them current', 'Sessions retrieved successfully', {
      type: 'object',
      required: ['sessions'],
      additionalProperties: false,
      properties: { sessions: { type: 'array', items: sessionEntry } },
    }),
    ...errorResponses(...signedInErrors),
  },
};

export const revokeSessionRouteSchema: FastifySchema = {
  operationId: 'revokeSession',
  summary: 'Sign one device out, by session id',
  tags: ['sessions'],
  security: BEARER_SECURITY,
  headers: REQUEST_ID_HEADERS,
  params: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'A session id from GET /auth/sessions' } } },
  response: { 204: noContent('The session ended'), ...errorResponses(...signedInErrors, 'SESSION_NOT_FOUND') },
};

export const changePasswordRouteSchema: FastifySchema = {
  operationId: 'changePassword',
  summary: 'Change the password; every other session ends, this one stays',
  tags: ['sessions'],
  security: BEARER_SECURITY,
  headers: REQUEST_ID_HEADERS,
  body: yupToJsonSchema(changePasswordSchema, {
    currentpassword: { minLength: 1, maxLength: PASSWORD_MAX_LENGTH },
    newpassword: { minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: 'The sign-up password rules apply' },
  }),
  response: {
    200: envelope('Password changed', 'Password changed successfully', {
      type: 'object',
      required: ['user'],
      additionalProperties: false,
      properties: { user: { $ref: USER_REF } },
    }),
    ...errorResponses(...signedInErrors, 'INVALID_INPUT', 'MALFORMED_BODY', 'TOO_MANY_ATTEMPTS', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'OVERLOADED'),
  },
};
