import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { PublicKeySet } from '../../application/ports/public-key-set.port.js';
import { type AccountRouteDeps, accountRoutes } from './account.routes.js';
import { type AuthHandlers, authRoutes } from './auth.routes.js';
import { INTERNAL_ERROR, envelope, mapError } from './error-mapper.js';
import { jwksRoutes } from './jwks.routes.js';

export interface HttpServerOptions {
  readonly logger: FastifyBaseLogger;
  readonly bodyLimitBytes: number;
  readonly handlers: AuthHandlers;
  readonly account: AccountRouteDeps;
  readonly publicKeys: PublicKeySet;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/** Builds the HTTP adapter: routes, content-type and size rules, and the one error mapping. Does not listen. */
export function buildHttpServer(options: HttpServerOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimitBytes,
    requestIdHeader: false,
    genReqId: (req) => {
      const offered = req.headers['x-request-id'];
      return typeof offered === 'string' && REQUEST_ID.test(offered) ? offered : randomUUID();
    },
    return503OnClosing: true,
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
  });
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (request.method === 'POST' && !JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) {
      const { status, body } = mapError({ statusCode: 415 }) ?? INTERNAL_ERROR;
      await reply.code(status).send(body);
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { method: request.method, route: request.routeOptions.url ?? null, status: reply.statusCode, durationMs: Math.round(reply.elapsedTime) },
      'request completed',
    );
  });

  app.setErrorHandler(async (error, request, reply) => {
    const mapped = mapError(error);
    if (mapped) return reply.code(mapped.status).headers(mapped.headers ?? {}).send(mapped.body);
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(INTERNAL_ERROR.status).send(INTERNAL_ERROR.body);
  });

  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).send(envelope('Not found', [{ field: null, message: 'no such route or method' }])),
  );

  void app.register(authRoutes(options.handlers));
  void app.register(accountRoutes(options.account));
  void app.register(jwksRoutes(options.publicKeys));
  return app;
}
