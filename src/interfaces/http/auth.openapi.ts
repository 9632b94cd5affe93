import { EMAIL_MAX_LENGTH } from '../../domain/email.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/password.js';
import { NAME_MAX_LENGTH } from '../../domain/person-name.js';
import { signInSchema, signUpSchema } from './auth.schemas.js';
import { USER_REF, errorResponses } from './openapi.js';
import { type JsonSchema, yupToJsonSchema } from './yup-json-schema.js';

const name = (label: string): JsonSchema => ({
  minLength: 1,
  maxLength: NAME_MAX_LENGTH,
  description: `${label}: trimmed, no control characters`,
});
const email: JsonSchema = {
  format: 'idn-email',
  maxLength: EMAIL_MAX_LENGTH,
  description: 'Trimmed, Unicode NFC and lower-cased before validation, uniqueness and sign-in; internationalised addresses (RFC 6531) are accepted',
};

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

const authSuccess: JsonSchema = {
  description: 'Signed in: the user, an ES256 access token and the refresh token of the new session',
  headers: NO_STORE_HEADERS,
  type: 'object',
  required: ['message', 'data'],
  additionalProperties: false,
  properties: {
    message: { type: 'string', examples: ['User created successfully'] },
    data: sessionTokensData,
  },
};

const ADA = { name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'analytical engine 1843' };

const signUpBody: JsonSchema = {
  ...yupToJsonSchema(signUpSchema, {
    name: name('Given name'),
    lastname: name('Last name'),
    email,
    password: {
      minLength: PASSWORD_MIN_LENGTH,
      maxLength: PASSWORD_MAX_LENGTH,
      description: 'Never trimmed, NFKC-normalised; must not be the e-mail or its local part',
    },
  }),
  'x-examples': {
    newUser: { summary: 'A new user: 201 (sent a second time: 409)', value: ADA },
  },
};

const signInBody: JsonSchema = {
  ...yupToJsonSchema(signInSchema, {
    email,
    password: { minLength: 1, maxLength: PASSWORD_MAX_LENGTH, description: 'Never trimmed, NFKC-normalised' },
  }),
  'x-examples': {
    registeredUser: { summary: 'Right credentials: 201', value: { email: ADA.email, password: ADA.password } },
    wrongPassword: { summary: 'Wrong password or unknown e-mail: 401', value: { email: ADA.email, password: 'not the password' } },
  },
};

export const signUpRouteSchema = {
  operationId: 'signUp',
  summary: 'Register a user and sign them in',
  tags: ['auth'],
  headers: REQUEST_ID_HEADERS,
  body: signUpBody,
  response: {
    201: authSuccess,
    ...errorResponses('INVALID_INPUT', 'MALFORMED_BODY', 'EMAIL_ALREADY_REGISTERED', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'),
    ...errorResponses('RATE_LIMITED', 'INTERNAL', 'OVERLOADED', 'STORE_UNAVAILABLE', 'SHUTTING_DOWN'),
  },
};

export const signInRouteSchema = {
  operationId: 'signIn',
  summary: 'Sign a user in by e-mail and password',
  tags: ['auth'],
  headers: REQUEST_ID_HEADERS,
  body: signInBody,
  response: {
    201: authSuccess,
    ...errorResponses('INVALID_INPUT', 'MALFORMED_BODY', 'INVALID_CREDENTIALS', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'),
    ...errorResponses('RATE_LIMITED', 'TOO_MANY_ATTEMPTS', 'INTERNAL', 'OVERLOADED', 'STORE_UNAVAILABLE', 'SHUTTING_DOWN'),
  },
};
