import type { FastifySchema } from 'fastify';
import { errorResponses } from './shared/openapi-schemas.js';

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

/** GET /.well-known/jwks.json: an RFC 7517 JWK Set of EC P-256 public keys, never a private member. */
export const jwksRouteSchema = (maxAgeSeconds: number): FastifySchema => ({
  operationId: 'getJwks',
  summary: 'The public keys access tokens are verified with (JWK Set, RFC 7517)',
  description: 'The current signing key first, then any previous or upcoming public keys. Pick the key by the token header kid.',
  tags: ['keys'],
  response: {
    200: {
      description: 'The JWK Set',
      headers: { 'cache-control': { type: 'string', const: `public, max-age=${maxAgeSeconds}` } },
      type: 'object',
      required: ['keys'],
      additionalProperties: false,
      properties: { keys: { type: 'array', minItems: 1, items: ecPublicKey } },
    },
    ...errorResponses('INTERNAL', 'SHUTTING_DOWN'),
  },
});
