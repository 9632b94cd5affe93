import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { PublicKeySet } from '../../application/ports/public-key-set.port.js';
import { type AccountRouteDeps, accountRoutes } from './account.routes.js';
import { type AuthHandlers, authRoutes } from './auth.routes.js';
import { INTERNAL_ERROR, envelope, mapError } from './error-mapper.js';
import { jwksRoutes } from './jwks.routes.js';
import { useStrictJsonParser } from './json-body-parser.js';
import { registerOpenApi } from './openapi.js';
import { type OperationsOptions, registerOperations } from './operations.js';
import { securityHeaders } from './security-headers.js';
import { ShutdownState } from './shutdown-state.js';

export interface HttpServerOptions {
  readonly logger: FastifyBaseLogger;
  readonly bodyLimitBytes: number;
  readonly handlers: AuthHandlers;
  readonly account: AccountRouteDeps;
  readonly publicKeys: PublicKeySet;
  /** Per client address, on /auth/*: at most `max` requests per `windowMs`. */
  readonly rateLimit: { readonly max: number; readonly windowMs: number };
  /** Fastify's `trustProxy`: whether (and which) proxies' X-Forwarded-For gives the client address. */
  readonly trustProxy: boolean | number | string[];
  /** Idle-socket and whole-request limits; 30 s each unless given. */
  readonly timeoutsMs?: { readonly connection: number; readonly request: number };
  /** Health, metrics and docs; without it only the auth routes are served. */
  readonly operations?: OperationsOptions;
}

const DEFAULT_TIMEOUT_MS = 30_000;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;
const SHUTTING_DOWN = {
  status: 503,
  body: envelope('Service temporarily unavailable', [{ field: null, message: 'shutting down' }]),
  headers: { connection: 'close', 'retry-after': '5' },
};

const trustedProxies = (setting: HttpServerOptions['trustProxy']) =>
  typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;

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
    connectionTimeout: options.timeoutsMs?.connection ?? DEFAULT_TIMEOUT_MS,
    requestTimeout: options.timeoutsMs?.request ?? DEFAULT_TIMEOUT_MS,
    keepAliveTimeout: 5_000,
    trustProxy: trustedProxies(options.trustProxy),
  });
  app.removeContentTypeParser('text/plain');
  useStrictJsonParser(app);
  const secure = securityHeaders();
  const shutdown = options.operations?.shutdown ?? new ShutdownState();
  app.addHook('preClose', async () => shutdown.stop());

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(secure).header('x-request-id', request.id);
    if (shutdown.stopping) {
      const { status, body, headers } = SHUTTING_DOWN;
      await reply.code(status).headers(headers).send(body);
    }
  });

  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.method === 'POST' && !JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) {
      throw Object.assign(new Error('unsupported media type'), { statusCode: 415 });
    }
    return payload;
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
  void app.register(async (auth) => {
    await auth.register(rateLimit, {
      max: options.rateLimit.max,
      timeWindow: options.rateLimit.windowMs,
      errorResponseBuilder: (_request, context) => Object.assign(new Error('rate limit exceeded'), { statusCode: context.statusCode }),
    });
    await auth.register(authRoutes(options.handlers));
    await auth.register(accountRoutes(options.account));
  });
  void app.register(jwksRoutes(options.publicKeys));
  return app;
}
