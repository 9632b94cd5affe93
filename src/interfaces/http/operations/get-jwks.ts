import { defineOperation } from '../shared/operation.js';

/** How long verifiers may cache the key set; a new signing key must be published at least this long before use. */
export const JWKS_MAX_AGE_SECONDS = 300;

const base64url = { type: 'string', pattern: '^[A-Za-z0-9_-]+$' };

const ecPublicKey = {
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
};

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
    body: { type: 'object', required: ['keys'], additionalProperties: false, properties: { keys: { type: 'array', minItems: 1, items: ecPublicKey } } },
  },
  errors: [],
  run: (_input, { publicKeys }) => Promise.resolve({ keys: publicKeys.publicKeys() }),
});
