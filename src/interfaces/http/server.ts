import { randomUUID } from 'node:crypto';
import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';
import type { UseCases } from '../../application/registry.js';
import { type CorsOptions, corsAnswerHeaders, registerCors } from './cors.js';
import { edgeShedding } from './edge-shedding.js';
import { type HttpObserver, observeAnswers } from './http-observer.js';
import { HttpError, mapError, sendError, trackErrorCodes } from './shared/error-mapper.js';
import { useStrictJsonParser } from './json-body-parser.js';
import type { RateLimitsState } from './health.routes.js';
import { registerOpenApi } from './openapi.js';
import { OPERATIONS } from './operations/index.js';
import { type AnyOperation, type AuthOperation, RATE_LIMITED_PREFIX } from './shared/operation.js';
import { registerOperation } from './shared/register-operation.js';
import { type OperationsOptions, registerOperations } from './operator-routes.js';
import { securityHeaders } from './security-headers.js';
import { ShutdownState } from './shutdown-state.js';

export interface HttpServerOptions {
  readonly logger: FastifyBaseLogger;
  readonly bodyLimitBytes: number;
  /** The registry of use cases (application/use-cases.ts); each route module takes the part it needs. */
  readonly useCases: UseCases;
  /** Per client address, on /auth/*: at most `max` requests per `windowMs`. */
  readonly rateLimit: {
    readonly max: number;
    readonly windowMs: number;
    /** Stricter, on password-reset requests and confirmations (default 10 per 15 minutes). */
    readonly reset?: { readonly max: number; readonly windowMs: number };
    /**
     * A Redis client (ioredis) the counters are kept in, shared by every instance and worker; absent: each process
     * counts its own. While it errs, a request is let through (fail open: docs/operations.md, "Scale-out").
     */
    readonly redis?: unknown;
    /** With `redis`: whether it answers now (what /health/ready reports). */
    readonly redisUp?: () => boolean;
  };
  /** Fastify's `trustProxy`: whether (and which) proxies' X-Forwarded-For gives the client address. */
  readonly trustProxy: boolean | number | string[];
  /** Connection deadlines (any left out: headers 10 s, request and idle 30 s, keep-alive 5 s, checked every 1 s). */
  readonly timeoutsMs?: Partial<HttpTimeoutsMs>;
  /** Open connections at most; further ones are closed as they arrive (default 900). */
  readonly maxConnections?: number;
  /** Metrics, request observation and the readiness timeout; without it, no /metrics and no observer. */
  readonly operations?: Omit<OperationsOptions, 'storeHealth' | 'shutdown'> & {
    readonly shutdown?: ShutdownState;
    /** Told about every completed response (request metrics, sign-up and sign-in outcomes). */
    readonly observer?: HttpObserver;
  };
  /** Origins allowed cross-origin (CORS_ORIGINS); none when absent. */
  readonly cors?: CorsOptions;
  /** The public base URL of the API (PUBLIC_API_URL), the OpenAPI `servers` entry; relative (`/`) when absent. */
  readonly publicUrl?: string;
  /** The capabilities' operations (their manifests'), served, documented and observed beside the core's OPERATIONS. */
  readonly capabilityOperations?: readonly AnyOperation[];
  /** The event types the capabilities show in the account's activity (their manifests' `activity`): documented beside the core's. */
  readonly capabilityActivityTypes?: readonly string[];
  /** The paths the capabilities answer themselves (their manifests' `rawRoutes`). */
  readonly rawRoutes?: readonly RawRoute[];
}

export interface HttpTimeoutsMs {
  readonly headers: number;
  readonly request: number;
  readonly connection: number;
  readonly keepAlive: number;
  readonly checkInterval: number;
}

const DEFAULT_TIMEOUTS_MS: HttpTimeoutsMs = { headers: 10_000, request: 30_000, connection: 30_000, keepAlive: 5_000, checkInterval: 1_000 };
const DEFAULT_MAX_CONNECTIONS = 900;
const DEFAULT_RESET_RATE_LIMIT = { max: 10, windowMs: 15 * 60_000 };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;
const FORM_MEDIA_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const CHARSET = /;\s*charset\s*=\s*("?)([^";\s]*)\1\s*(;|$)/i;

/** JSON with no charset, or charset UTF-8: the body is decoded as UTF-8 (RFC 8259), so any other charset is refused. */
const isUtf8Json = (contentType: string): boolean => {
  if (!JSON_MEDIA_TYPE.test(contentType)) return false;
  const charset = CHARSET.exec(contentType);
  return charset === null ? !/;\s*charset\s*=/i.test(contentType) : charset[2]?.toLowerCase() === 'utf-8';
};

/** The request id: the offered X-Request-Id when it is a short token, a fresh UUID otherwise. */
const requestId = (req: IncomingMessage): string => {
  const offered = req.headers['x-request-id'];
  return typeof offered === 'string' && REQUEST_ID.test(offered) ? offered : randomUUID();
};

const trustedProxies = (setting: HttpServerOptions['trustProxy']) =>
  typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;

const causeOf = (error: unknown): { message: string; code?: unknown } | null => {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error ? { message: cause.message, code: (cause as { code?: unknown }).code } : null;
};

/** The POST paths of the operations that hash a password, with their outcome metric: what the edge sheds under load. */
const hashingRoutes = (operations: readonly AnyOperation[]): Map<string, AuthOperation | null> =>
  new Map(operations.filter((op) => op.hashes && op.method === 'POST').map((op) => [op.path, op.observedAs ?? null]));

const observedRoutes = (operations: readonly AnyOperation[]): Map<string, AuthOperation> =>
  new Map(operations.flatMap((op) => (op.observedAs === undefined ? [] : [[op.path, op.observedAs] as const])));

/**
 * What the HTTP server answers a request it could not parse (Node's `clientError`), in the documented envelope with
 * the security headers, then closes the connection: headers over the limit (431), a request timeout (408), anything
 * else that is not HTTP/1.1 (400). Nothing when the socket is gone.
 */
const clientErrorAnswer = (headers: Readonly<Record<string, string>>) => (error: Error & { code?: string }, socket: Socket): void => {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code = error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : 'MALFORMED_REQUEST';
  const answer = mapError(new HttpError(code));
  const body = JSON.stringify(answer.body);
  const lines = Object.entries({ ...headers, ...answer.headers, connection: 'close', 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
  if (socket.writable) socket.write(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n${lines.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n${body}`);
  socket.destroy(error);
};

/**
 * A request's logger, made a pino child (bindings serialised, methods rebuilt: about 3 µs) only when something logs
 * through it. Most requests log nothing but their access line, which does not go through it.
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }

  fatal: FastifyBaseLogger['fatal'] = (...args: Parameters<FastifyBaseLogger['fatal']>) => this.real.fatal(...args);
  error: FastifyBaseLogger['error'] = (...args: Parameters<FastifyBaseLogger['error']>) => this.real.error(...args);
  warn: FastifyBaseLogger['warn'] = (...args: Parameters<FastifyBaseLogger['warn']>) => this.real.warn(...args);
  info: FastifyBaseLogger['info'] = (...args: Parameters<FastifyBaseLogger['info']>) => this.real.info(...args);
  debug: FastifyBaseLogger['debug'] = (...args: Parameters<FastifyBaseLogger['debug']>) => this.real.debug(...args);
  trace: FastifyBaseLogger['trace'] = (...args: Parameters<FastifyBaseLogger['trace']>) => this.real.trace(...args);
  silent: FastifyBaseLogger['silent'] = (...args: Parameters<FastifyBaseLogger['silent']>) => this.real.silent(...args);
}

/** Builds the HTTP adapter: routes, content-type and size rules, and the one error mapping. Does not listen. */
export function buildHttpServer(options: HttpServerOptions): FastifyInstance {
  const operations = [...OPERATIONS, ...(options.capabilityOperations ?? [])];
  const timeouts = { ...DEFAULT_TIMEOUTS_MS, ...options.timeoutsMs };
  const headers = securityHeaders();
  const secure = headers.plain;
  const shutdown = options.operations?.shutdown ?? new ShutdownState();
  const cors = options.cors ?? { origins: [] };
  const app = Fastify({
    serverFactory: edgeShedding({
      admission: options.useCases.admission,
      hashingRoutes: hashingRoutes(operations),
      shutdown,
      headers: secure,
      headersFor: (request) => corsAnswerHeaders(cors, request.headers.origin),
      requestId,
      logger: options.logger,
      observer: options.operations?.observer,
      timeoutsMs: timeouts,
    }),
    loggerInstance: options.logger,
    childLoggerFactory: (logger, bindings, childOptions) => new RequestLogger(logger, bindings, childOptions),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimitBytes,
    requestIdHeader: false,
    genReqId: requestId,
    return503OnClosing: false,
    connectionTimeout: timeouts.connection,
    requestTimeout: timeouts.request,
    keepAliveTimeout: timeouts.keepAlive,
    // No `http` options: the server factory (edgeShedding) creates the server with the header deadline and check interval.
    trustProxy: trustedProxies(options.trustProxy),
    // Refusals before any route, in the documented envelope instead of Fastify's own bodies (which echo the URL).
    frameworkErrors: (error, _request, reply) => {
      const code = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'URI_TOO_LONG' : error.code === 'FST_ERR_BAD_URL' ? 'MALFORMED_URL' : 'MALFORMED_REQUEST';
      void sendError(reply.headers(secure).header('x-request-id', reply.request.id), new HttpError(code));
    },
    clientErrorHandler: clientErrorAnswer(secure),
  });
  app.server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  trackErrorCodes(app);
  app.setValidatorCompiler(() => () => true);
  app.removeContentTypeParser('text/plain');
  useStrictJsonParser(app);
  app.addHook('preClose', async () => shutdown.stop());

  // The per-request hooks are synchronous (callback style): no promise, no microtask per hook and request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.protocol === 'https' ? headers.overHttps : secure).header('x-request-id', request.id);
    if (shutdown.stopping) sendError(reply, new HttpError('SHUTTING_DOWN'));
    else done();
  });
  registerCors(app, cors);

  app.addHook('preParsing', (request, _reply, payload, done) => {
    // An unknown route answers 404 whatever it was sent: Fastify would parse its body first (a 415 or 400 instead).
    if (request.is404 && request.method !== 'GET' && request.method !== 'HEAD') return done(new HttpError('NOT_FOUND'));
    if (!BODY_METHODS.has(request.method) || request.routeOptions.config.raw === true) return done(null, payload);
    const bodyless = request.headers['content-length'] === undefined || request.headers['content-length'] === '0';
    const skip = request.routeOptions.config.optionalBody === true && bodyless && request.headers['transfer-encoding'] === undefined;
    const type = request.headers['content-type'] ?? '';
    const form = request.routeOptions.config.formBody === true && FORM_MEDIA_TYPE.test(type);
    if (!skip && !form && !isUtf8Json(type)) return done(new HttpError('UNSUPPORTED_MEDIA_TYPE'));
    return done(null, payload);
  });

  observeAnswers(app, { logger: options.logger, observer: options.operations?.observer, observed: observedRoutes(operations) });

  app.setErrorHandler(async (error, request, reply) => {
    const { code } = mapError(error);
    if (code === 'INTERNAL') request.log.error({ err: error }, 'unexpected error');
    if (code === 'STORE_UNAVAILABLE') request.log.warn({ cause: causeOf(error) }, 'store unavailable: answered 503');
    return sendError(reply, error);
  });

  app.setNotFoundHandler(async (_request, reply) => sendError(reply, new HttpError('NOT_FOUND')));

  const { useCases } = options;
  registerOpenApi(app, operations, {
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(options.capabilityActivityTypes === undefined ? {} : { activityTypes: options.capabilityActivityTypes }),
  });
  const { redis, redisUp } = options.rateLimit;
  const rateLimits = (): RateLimitsState => (redis === undefined ? 'per-process' : redisUp?.() === false ? 'fail-open' : 'shared');
  registerOperations(app, { ...options.operations, storeHealth: useCases.storeHealth, shutdown, rateLimits });
  const registerOptions = { resetRateLimit: options.rateLimit.reset ?? DEFAULT_RESET_RATE_LIMIT };
  void app.register(async (auth) => {
    await auth.register(rateLimit, {
      max: options.rateLimit.max,
      timeWindow: options.rateLimit.windowMs,
      ...(options.rateLimit.redis === undefined ? {} : { redis: options.rateLimit.redis, nameSpace: 'account-service-rl:', skipOnError: true }),
      errorResponseBuilder: () => new HttpError('RATE_LIMITED'),
    });
    for (const operation of operations.filter((op) => op.path.startsWith(RATE_LIMITED_PREFIX))) registerOperation(auth, operation, useCases, registerOptions);
  });
  void app.register(async (open) => {
    for (const operation of operations.filter((op) => !op.path.startsWith(RATE_LIMITED_PREFIX))) registerOperation(open, operation, useCases, registerOptions);
  });
  registerRawRoutes(app, options.rawRoutes ?? []);
  return app;
}

/** A path a capability answers itself (the OpenID provider's endpoints), as its manifest declares it. */
export interface RawRoute {
  readonly methods: readonly ('GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS')[];
  readonly path: string;
  readonly handle: (request: IncomingMessage, response: ServerResponse, context: RawRequestContext) => Promise<void> | void;
}

/** What the service knows of a raw request besides the request itself: its id, the client's address and whether it came over HTTPS (TRUST_PROXY applied). */
export interface RawRequestContext {
  readonly requestId: string;
  readonly clientIp: string;
  readonly https: boolean;
}

/**
 * Serves the raw routes in a scope of their own: no body parser reads their body (the handler does), and the answer is
 * the handler's, written on the response that already carries the service's headers (security headers, request id),
 * which it may replace (a page's own Content-Security-Policy). Shutdown, connection limits and timeouts are the server's.
 */
function registerRawRoutes(app: FastifyInstance, routes: readonly RawRoute[]): void {
  if (routes.length === 0) return;
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    for (const route of routes) {
      scope.route({
        method: [...route.methods],
        url: route.path,
        config: { raw: true },
        // Not an operation of the documented API: the engine publishes its own metadata.
        schema: { hide: true },
        handler: async (request, reply) => {
          for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
          reply.hijack();
          await route.handle(request.raw, reply.raw, { requestId: request.id, clientIp: request.ip, https: request.protocol === 'https' });
        },
      });
    }
  });
}
