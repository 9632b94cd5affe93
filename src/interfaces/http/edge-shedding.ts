import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify';
import { ServiceUnavailable } from '../../application/errors.js';
import type { HashingAdmission } from '../../application/ports/hashing-admission.port.js';
import { HttpError, mapError } from './shared/error-mapper.js';
import { type AuthOperation, type HttpObserver, authOutcomeOf } from './http-observer.js';
import type { ShutdownState } from './shutdown-state.js';

export interface EdgeSheddingOptions {
  readonly admission: HashingAdmission;
  /** The POST paths that hash a password (derived from the operations' `hashes`), with their outcome metric if any. */
  readonly hashingRoutes: ReadonlyMap<string, AuthOperation | null>;
  readonly shutdown: ShutdownState;
  /** Headers every answer carries (the security headers). */
  readonly headers: Readonly<Record<string, string>>;
  /** Headers that depend on the request (the CORS headers for an allowed Origin, so a browser app can read the 503). */
  readonly headersFor?: (request: IncomingMessage) => Readonly<Record<string, string>>;
  /** The request id to answer with (the offered one when acceptable, a fresh one otherwise). */
  readonly requestId: (request: IncomingMessage) => string;
  readonly logger: FastifyBaseLogger;
  readonly observer?: HttpObserver | undefined;
  /** The connection deadlines (server.ts documents them); the factory owns the server, so it applies them all. */
  readonly timeoutsMs: {
    readonly headers: number;
    readonly request: number;
    readonly connection: number;
    readonly keepAlive: number;
    readonly checkInterval: number;
  };
}

const IN_FLIGHT = Symbol('inFlight');
interface InFlight {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
}

const pathOf = (url: string | undefined): string => {
  const query = url?.indexOf('?') ?? -1;
  return query === -1 ? (url ?? '') : (url ?? '').slice(0, query);
};

/**
 * Fastify's server factory with load shedding in front: a request to an operation that hashes, refused by admission, gets
 * the table's OVERLOADED answer (503, Retry-After, the envelope, the security headers, the request id) straight
 * from the HTTP server, before Fastify routes it, runs a hook, reads the body or builds a reply; prebuilt bytes
 * but for the request id. The connection stays open. Anything else, and any refusal while shutting down, goes to
 * Fastify (whose admission hook on the same routes still refuses what this let through).
 */
export function edgeShedding(options: EdgeSheddingOptions): FastifyServerFactory {
  const answer = mapError(new ServiceUnavailable('overloaded', 1));
  const body = Buffer.from(JSON.stringify(answer.body));
  const headers = { ...options.headers, ...answer.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };
  const shed = (request: IncomingMessage, response: ServerResponse, route: string, operation: AuthOperation | null) => {
    const started = performance.now();
    const requestId = options.requestId(request);
    response.writeHead(answer.status, { ...headers, ...options.headersFor?.(request), 'x-request-id': requestId });
    response.end(body);
    options.logger.debug({ reqId: requestId, method: request.method, route, status: answer.status }, 'request shed at the edge');
    options.observer?.requestCompleted({ route, method: 'POST', status: answer.status, durationSeconds: (performance.now() - started) / 1000 });
    if (operation) options.observer?.authAttempted(operation, authOutcomeOf(answer.code, answer.status));
  };
  const refused = (): boolean => {
    try {
      options.admission.admit();
      return false;
    } catch (error) {
      return error instanceof ServiceUnavailable;
    }
  };
  const timeout = mapError(new HttpError('REQUEST_TIMEOUT'));
  const timeoutBody = Buffer.from(JSON.stringify(timeout.body));
  /**
   * The latest request on each socket and its answer (a socket carries one request at a time): a field of the socket,
   * overwritten by the next request and gone with the socket, so nothing is added or removed per request.
   */
  const inFlight = (socket: Socket): InFlight | undefined => (socket as Socket & { [IN_FLIGHT]?: InFlight })[IN_FLIGHT];
  /**
   * A socket silent for IDLE_TIMEOUT_MS: a request whose body stopped arriving gets the table's 408 (rather than a
   * silent close); an idle one is closed. Node's own deadlines (headers, whole request) answer 408 themselves.
   */
  const timedOut = (socket: Socket): void => {
    const current = inFlight(socket);
    if (!current || current.request.complete || current.response.headersSent) {
      socket.destroy();
      return;
    }
    const { response } = current;
    response.writeHead(timeout.status, { ...options.headers, ...timeout.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(timeoutBody.length) });
    response.end(timeoutBody, () => socket.destroy());
    options.logger.info({ status: timeout.status }, 'request body stalled: answered 408');
  };
  return (handler) => {
    const { headers: headersTimeout, request: requestTimeout, checkInterval, keepAlive } = options.timeoutsMs;
    const serverOptions = { headersTimeout: Math.min(headersTimeout, requestTimeout), requestTimeout, connectionsCheckingInterval: checkInterval, keepAliveTimeout: keepAlive };
    const server: Server = createServer(serverOptions, (request, response) => {
      (request.socket as Socket & { [IN_FLIGHT]?: InFlight })[IN_FLIGHT] = { request, response };
      const route = request.method === 'POST' ? pathOf(request.url) : '';
      const operation = options.hashingRoutes.get(route);
      if (operation !== undefined && !options.shutdown.stopping && refused()) shed(request, response, route, operation);
      else handler(request, response);
    });
    server.setTimeout(options.timeoutsMs.connection, (socket: Socket) => timedOut(socket));
    return server;
  };
}
