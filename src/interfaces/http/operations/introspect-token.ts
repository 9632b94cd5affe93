import { rawText, requireAll } from '../../../domain/validation.js';
import { object } from 'yup';
import { namedSchema, componentRef } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { text } from '../shared/request-body.js';

/** RFC 7662 section 2.2: `active`, and for an active access token its claims. */
const INTROSPECTION = namedSchema('Introspection', {
  description: 'RFC 7662 token introspection: `active: false` alone for every token that is not a live access token of this service.',
  type: 'object',
  required: ['active'],
  additionalProperties: false,
  properties: {
    active: { type: 'boolean' },
    sub: { type: 'string', description: 'The account id' },
    sid: { type: 'string', description: 'The session id' },
    exp: { type: 'integer', description: 'Expiry, epoch seconds' },
    iat: { type: 'integer', description: 'Issued at, epoch seconds' },
    amr: { type: 'array', items: { type: 'string' }, description: 'How the holder signed in (pwd, otp, webauthn, oauth)' },
    token_type: { type: 'string', const: 'Bearer' },
  },
});

/** POST /oauth/introspect (RFC 7662): is this access token live now? JSON or form-encoded `token`; an API key with scope introspect. */
export const introspectToken = defineOperation({
  method: 'POST',
  path: '/oauth/introspect',
  operationId: 'introspectToken',
  summary: 'Token introspection (RFC 7662): whether an access token is live now',
  description:
    'For resource servers: `active: true` with the token\'s claims while it verifies and its session is live, the same check every bearer request makes, so a sign-out, a revoked session or a deleted account answers `active: false` at once. Any other input (garbage, an expired, forged or refresh token) is `active: false`, never an error. The body may be JSON or `application/x-www-form-urlencoded`, as RFC 7662 sends it.',
  tag: 'admin',
  auth: 'api-key',
  scope: 'introspect',
  hashes: false,
  body: {
    schema: object({ token: text() }),
    form: true,
    docs: { token: { description: 'The access token a client presented to the resource server' } },
  },
  success: { status: 200, envelope: false, description: 'The introspection answer', cacheControl: 'no-store', body: componentRef('Introspection') },
  schemas: [INTROSPECTION],
  errors: ['INVALID_INPUT', 'STORE_UNAVAILABLE'],
  // RFC 7662 section 2.1: `token` is required; a request without one is refused, not answered inactive.
  run: ({ body }, { introspectToken }) => introspectToken.execute({ token: requireAll({ token: rawText('token', body.token) }).token }),
});
