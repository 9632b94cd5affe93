import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { type AuthHandlers, authRoutes } from './auth.routes.js';
import { INTERNAL_ERROR, envelope, mapError } from './error-mapper.js';
import { registerOpenApi } from './openapi.js';
import { type OperationsOptions, registerOperations } from './operations.js';
import { ShutdownState } from './shutdown-state.js';

export interface HttpServerOptions {
  readonly logger: FastifyBaseLogger;
  readonly bodyLimitBytes: number;
  readonly handlers: AuthHandlers;
  /** Health, metrics and docs; without it only the auth routes are served. */
  readonly operations?: OperationsOptions;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;
const SHUTTING_DOWN = {
  status: 503,
  body: envelope('Service temporarily unavailable', [{ field: null, message: 'shutting down' }]),
  headers: { connection: 'close', 'retry-after': '5' },
};

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
    return503OnClosing: false,
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
  });
  app.removeContentTypeParser('text/plain');
  const shutdown = options.operations?.shutdown ?? new ShutdownState();
  app.addHook('preClose', async () => shutdown.stop());

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (shutdown.stopping) {
      const { status, body, headers } = SHUTTING_DOWN;
      await reply.code(status).headers(headers).send(body);
      return;
    }
    if (request.method === 'POST' && !JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) {
      const { status, body } = mapError({ statusCode: 415 }) ?? INTERNAL_ERROR;
      await reply.code(status).send(body);
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    request.log[request.routeOptions.config.quietLog ? 'debug' : 'info'](
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

  registerOpenApi(app);
  if (options.operations) registerOperations(app, options.operations);
  void app.register(authRoutes(options.handlers));
  return app;
}
