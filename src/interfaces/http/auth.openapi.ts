import { USER_REF } from './shared/openapi-schemas.js';
import type { JsonSchema } from './shared/yup-json-schema.js';

export const REQUEST_ID_HEADERS: JsonSchema = {
  type: 'object',
  properties: {
    'x-request-id': {
      type: 'string',
      pattern: '^[A-Za-z0-9._:-]{1,128}$',
      description: 'Kept when sane (else a new UUID is used); returned as X-Request-Id on every response',
    },
  },
};

export const NO_STORE_HEADERS: JsonSchema = {
  'cache-control': { type: 'string', const: 'no-store', description: 'Never cached: the answer carries tokens' },
  pragma: { type: 'string', const: 'no-cache', description: 'For HTTP/1.0 caches' },
};

/** `data` of every answer that signs a session in: the user, an access token, a refresh token and its lifetime. */
export const sessionTokensData: JsonSchema = {
  type: 'object',
  required: ['user', 'accesstoken', 'refreshtoken', 'expiresin'],
  additionalProperties: false,
  properties: {
    user: { $ref: USER_REF },
    accesstoken: { type: 'string', description: 'ES256 JWT; send as Authorization: Bearer <accesstoken>' },
    refreshtoken: { type: 'string', description: 'Opaque; POST it to /auth/refresh for new tokens. Rotated on every refresh' },
    expiresin: { type: 'integer', minimum: 1, description: 'Lifetime of the access token, in seconds' },
  },
};
