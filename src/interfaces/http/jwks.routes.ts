import type { FastifyInstance } from 'fastify';
import type { UseCases } from '../../application/registry.js';
import { jwksRouteSchema } from './jwks.openapi.js';

/** How long verifiers may cache the key set; a new signing key must be published at least this long before use. */
export const JWKS_MAX_AGE_SECONDS = 300;

/** GET /.well-known/jwks.json: the public keys tokens are accepted with (RFC 7517 JWK Set). */
export function jwksRoutes({ publicKeys }: Pick<UseCases, 'publicKeys'>) {
  return (app: FastifyInstance): void => {
    app.get('/.well-known/jwks.json', { schema: jwksRouteSchema(JWKS_MAX_AGE_SECONDS) }, async (_request, reply) =>
      reply.header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`).send({ keys: publicKeys.publicKeys() }),
    );
  };
}
