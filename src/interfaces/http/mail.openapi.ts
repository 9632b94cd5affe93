import type { FastifySchema } from 'fastify';
import { object } from 'yup';
import { EMAIL_MAX_LENGTH } from '../../domain/email.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/password.js';
import { NO_STORE_HEADERS, REQUEST_ID_HEADERS } from './auth.openapi.js';
import { text } from './shared/request-body.js';
import { BEARER_SECURITY, USER_REF, errorResponses } from './shared/openapi-schemas.js';
import { type JsonSchema, yupToJsonSchema } from './shared/yup-json-schema.js';

export const resetRequestSchema = object({ email: text() });
export const resetConfirmSchema = object({ token: text(), newpassword: text() });
export const verifySchema = object({ token: text() });

const accepted = (description: string, message: string): JsonSchema => ({
  description,
  type: 'object',
  required: ['message', 'data'],
  additionalProperties: false,
  properties: { message: { type: 'string', const: message }, data: { type: 'object', additionalProperties: false } },
});

const withUser = (description: string, message: string): JsonSchema => ({
  description,
  headers: NO_STORE_HEADERS,
  type: 'object',
  required: ['message', 'data'],
  additionalProperties: false,
  properties: {
    message: { type: 'string', examples: [message] },
    data: { type: 'object', required: ['user'], additionalProperties: false, properties: { user: { $ref: USER_REF } } },
  },
});

const bodyErrors = ['INVALID_INPUT', 'MALFORMED_BODY', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'RATE_LIMITED', 'INTERNAL', 'STORE_UNAVAILABLE', 'SHUTTING_DOWN'] as const;
const token = { minLength: 1, maxLength: 512, description: 'The token from the link of the mail (after #token=)' };

export const RESET_REQUESTED_MESSAGE = 'If an account uses this address, a reset link is on its way';
export const RESEND_MESSAGE = 'A verification mail is on its way, unless the address is already verified';

export const resetRequestRouteSchema: FastifySchema = {
  operationId: 'requestPasswordReset',
  summary: 'Ask for a password reset link (the same answer whether or not the address has an account)',
  tags: ['mail'],
  headers: REQUEST_ID_HEADERS,
  body: yupToJsonSchema(resetRequestSchema, { email: { maxLength: EMAIL_MAX_LENGTH } }),
  response: { 202: accepted('Recorded; the mail leaves from the outbox', RESET_REQUESTED_MESSAGE), ...errorResponses(...bodyErrors) },
};

export const resetConfirmRouteSchema: FastifySchema = {
  operationId: 'confirmPasswordReset',
  summary: 'Set a new password with the token of a reset link; every session of the account ends',
  tags: ['mail'],
  headers: REQUEST_ID_HEADERS,
  body: yupToJsonSchema(resetConfirmSchema, {
    token,
    newpassword: { minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: 'The sign-up password rules apply' },
  }),
  response: { 200: withUser('Password reset; sign in with the new password', 'Password reset successfully'), ...errorResponses(...bodyErrors, 'OVERLOADED') },
};

export const verifyRouteSchema: FastifySchema = {
  operationId: 'verifyEmail',
  summary: 'Prove the address with the token of the verification mail',
  tags: ['mail'],
  headers: REQUEST_ID_HEADERS,
  body: yupToJsonSchema(verifySchema, { token }),
  response: { 200: withUser('Verified: emailverified is true', 'Email verified successfully'), ...errorResponses(...bodyErrors) },
};

export const resendRouteSchema: FastifySchema = {
  operationId: 'resendVerificationEmail',
  summary: 'Ask for another verification mail for the signed-in account',
  tags: ['mail'],
  security: BEARER_SECURITY,
  headers: REQUEST_ID_HEADERS,
  response: { 202: accepted('Recorded; the mail leaves from the outbox', RESEND_MESSAGE), ...errorResponses('MISSING_TOKEN', 'INVALID_TOKEN', ...bodyErrors) },
};
