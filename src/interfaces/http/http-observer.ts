import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type DestinationStream, type Level, type Logger, pino } from 'pino';
import { AUTH_OUTCOMES, ERROR_TABLE, SECOND_FACTOR_REQUIRED } from './shared/error-table.js';
import type { AnsweredCode } from './shared/error-mapper.js';
import type { AuthOperation } from './shared/operation.js';

export type { AuthOperation };

export interface RequestSample {
  /** The route pattern (never the raw URL), or 'unmatched' for a 404 of no route. */
  readonly route: string;
  readonly method: string;
  readonly status: number;
  readonly durationSeconds: number;
}

/** What the HTTP adapter reports about its traffic; the composition root supplies an implementation. */
export interface HttpObserver {
  /** Called once, before any traffic, with every outcome label `authAttempted` may report. Must not throw. */
  declareAuthOutcomes(operations: readonly AuthOperation[], outcomes: readonly string[]): void;
  /** Called once per completed response. Must not throw. */
  requestCompleted(sample: RequestSample): void;
  /** Called once per completed sign-up or sign-in, with the outcome of its error code (or `success`). Must not throw. */
  authAttempted(operation: AuthOperation, outcome: string): void;
}

/** The outcome of an answer: its error code's row in the error table, `success` below 400, `error` otherwise. */
export const authOutcomeOf = (errorCode: AnsweredCode | null, status: number): string =>
  errorCode === null ? (status === 202 ? SECOND_FACTOR_REQUIRED : status < 400 ? 'success' : 'error') : errorCode in ERROR_TABLE ? ERROR_TABLE[errorCode as keyof typeof ERROR_TABLE].outcome : 'error';

interface AccessLine {
  readonly reqId: string;
  readonly method: string;
  readonly route: string | null;
  readonly status: number;
  readonly durationMs: number;
}

/**
 * Writes the access line of each answer. Its fields are fixed and hold no secret (the request id is a checked token or
 * a UUID, the route is the pattern, never the URL), so it needs neither redaction nor pino's generic serialisation:
 * on a pino logger it is written straight to the logger's stream as the line pino writes (its level and time
 * fragments, the logger's bindings, the fields, msg), which costs a fraction of `logger.info` (measured on `GET /auth/me`: 7 µs of 90 per
 * request). Any other logger gets `info`/`debug` with the same fields.
 */
const accessLineWriter = (logger: FastifyBaseLogger): ((level: Level, line: AccessLine) => void) => {
  const target = logger as Partial<Logger> & Record<symbol, unknown>;
  const stream = target[pino.symbols.streamSym] as DestinationStream | undefined;
  const levelPrefix = target[pino.symbols.lsCacheSym] as Record<number, string> | undefined;
  const time = target[pino.symbols.timeSym];
  const bindings = target[pino.symbols.chindingsSym];
  const levels = target.levels?.values;
  if (stream === undefined || levelPrefix === undefined || typeof time !== 'function' || typeof bindings !== 'string' || levels === undefined || typeof target.isLevelEnabled !== 'function') {
    return (level, line) => logger[level](line, 'request completed');
  }
  const enabled = target.isLevelEnabled.bind(logger);
  const timeFragment = time as () => string;
  return (level, { reqId, method, route, status, durationMs }) => {
    if (!enabled(level)) return;
    stream.write(
      `${levelPrefix[levels[level] ?? 30] ?? ''}${timeFragment()}${bindings},"reqId":${JSON.stringify(reqId)},"method":${JSON.stringify(method)},"route":${JSON.stringify(route)},"status":${status},"durationMs":${durationMs},"msg":"request completed"}\n`,
    );
  };
};

export interface AnswerObservation {
  readonly logger: FastifyBaseLogger;
  /** Told about every answer (request metrics, sign-up and sign-in outcomes); without it, only the access line. */
  readonly observer?: HttpObserver | undefined;
  /** The POST paths whose outcomes the observer counts (sign-up and sign-in), by their metric label. */
  readonly observed: ReadonlyMap<string, AuthOperation>;
}

/**
 * Observes every answer in one `onResponse` hook (one hook run per request, not one per concern): its access line
 * (at debug for quiet routes and shed answers, at info otherwise), and, with an observer, its sample and the outcome
 * of a sign-up or sign-in.
 */
export function observeAnswers(app: FastifyInstance, { logger, observer, observed }: AnswerObservation): void {
  observer?.declareAuthOutcomes([...observed.values()], AUTH_OUTCOMES);
  const accessLine = accessLineWriter(logger);
  app.addHook('onResponse', (request, reply, done) => {
    const { config, url } = request.routeOptions;
    const { method } = request;
    const status = reply.statusCode;
    const quiet = config.quietLog === true || reply.errorCode === 'OVERLOADED';
    accessLine(quiet ? 'debug' : 'info', { reqId: request.id, method, route: url ?? null, status, durationMs: Math.round(reply.elapsedTime) });
    if (observer) {
      const route = url ?? 'unmatched';
      observer.requestCompleted({ route, method, status, durationSeconds: reply.elapsedTime / 1000 });
      const operation = method === 'POST' ? observed.get(route) : undefined;
      if (operation) observer.authAttempted(operation, authOutcomeOf(reply.errorCode, status));
    }
    done();
  });
}
