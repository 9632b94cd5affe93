import type { FastifyInstance } from 'fastify';
import { AUTH_OUTCOMES, ERROR_TABLE, SECOND_FACTOR_REQUIRED } from './shared/error-table.js';

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
export const authOutcomeOf = (errorCode: keyof typeof ERROR_TABLE | null, status: number): string =>
  errorCode === null ? (status === 202 ? SECOND_FACTOR_REQUIRED : status < 400 ? 'success' : 'error') : ERROR_TABLE[errorCode].outcome;

/** Reports every completed response, and every sign-up and sign-in outcome, to the observer. */
export function observeRequests(app: FastifyInstance, observer: HttpObserver, observed: ReadonlyMap<string, AuthOperation>): void {
  observer.declareAuthOutcomes([...observed.values()], AUTH_OUTCOMES);
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    observer.requestCompleted({ route, method: request.method, status, durationSeconds: reply.elapsedTime / 1000 });
    const operation = request.method === 'POST' ? observed.get(route) : undefined;
    if (operation) observer.authAttempted(operation, authOutcomeOf(reply.errorCode, status));
    done();
  });
}
