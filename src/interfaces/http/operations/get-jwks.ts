import { componentRef, namedSchema } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';

/** How long verifiers may cache the key set; a new signing key must be published at least this long before use. */
export const JWKS_MAX_AGE_SECONDS = 300;

const base64url = { type: 'string', pattern: '^[A-Za-z0-9_-]+$' };

/** One public key of the set (a named component, as is the set: JwkSet). */
export const EC_PUBLIC_KEY = namedSchema('EcPublicKey', {
  description: 'An EC P-256 public signing key (RFC 7517, RFC 7518); never a private member.',
  type: 'object',
  required: ['kty', 'crv', 'x', 'y', 'kid', 'alg', 'use'],
  additionalProperties: false,
  properties: {
    kty: { type: 'string', const: 'EC' },
    crv: { type: 'string', const: 'P-256' },
    x: base64url,
    y: base64url,
    kid: { type: 'string', minLength: 1 },
    alg: { type: 'string', const: 'ES256' },
    use: { type: 'string', const: 'sig' },
  },
});

/** The JWK Set: the body of GET /.well-known/jwks.json. */
export const JWK_SET = namedSchema('JwkSet', {
  description: 'A JWK Set (RFC 7517 section 5) of the public keys that verify access tokens.',
  type: 'object',
  required: ['keys'],
  additionalProperties: false,
  properties: { keys: { type: 'array', minItems: 1, items: componentRef('EcPublicKey') } },
});

/** GET /.well-known/jwks.json: an RFC 7517 JWK Set of EC P-256 public keys, never a private member; not the envelope. */
export const getJwks = defineOperation({
  method: 'GET',
  path: '/.well-known/jwks.json',
  operationId: 'getJwks',
  summary: 'The public keys access tokens are verified with (JWK Set, RFC 7517)',
  description: 'The current signing key first, then any previous or upcoming public keys. Pick the key by the token header kid.',
  tag: 'keys',
  auth: 'none',
  hashes: false,
  success: {
    status: 200,
    envelope: false,
    description: 'The JWK Set',
    cacheControl: `public, max-age=${JWKS_MAX_AGE_SECONDS}`,
    body: componentRef('JwkSet'),
  },
  schemas: [EC_PUBLIC_KEY, JWK_SET],
  errors: [],
  run: (_input, { publicKeys }) => Promise.resolve({ keys: publicKeys.publicKeys() }),
});
