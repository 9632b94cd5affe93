import type { FastifyInstance } from 'fastify';

export type AuthOperation = 'sign_up' | 'sign_in';
export type AuthOutcome = 'success' | 'invalid_input' | 'duplicate' | 'invalid_credentials' | 'throttled' | 'shed' | 'error';

export interface RequestSample {
  /** The route pattern (never the raw URL), or 'unmatched' for a 404 of no route. */
  readonly route: string;
  readonly method: string;
  readonly status: number;
  readonly durationSeconds: number;
}

/** What the HTTP adapter reports about its traffic; the composition root supplies an implementation. */
export interface HttpObserver {
  /** Called once per completed response. Must not throw. */
  requestCompleted(sample: RequestSample): void;
  /** Called once per completed sign-up or sign-in, with the outcome read from the status. Must not throw. */
  authAttempted(operation: AuthOperation, outcome: AuthOutcome): void;
}

export const AUTH_OPERATIONS: Readonly<Record<string, AuthOperation>> = {
  '/auth/sign-up': 'sign_up',
  '/auth/sign-in': 'sign_in',
};

const OUTCOME_BY_STATUS: Readonly<Record<number, AuthOutcome>> = {
  201: 'success',
  400: 'invalid_input',
  413: 'invalid_input',
  415: 'invalid_input',
  409: 'duplicate',
  401: 'invalid_credentials',
  429: 'throttled',
  503: 'shed',
};

/** The outcome of a sign-up or sign-in, from its response status alone; 'error' for anything unexpected. */
export const authOutcomeOf = (status: number): AuthOutcome => OUTCOME_BY_STATUS[status] ?? 'error';

/** Reports every completed response, and every sign-up and sign-in outcome, to the observer. */
export function observeRequests(app: FastifyInstance, observer: HttpObserver): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    observer.requestCompleted({ route, method: request.method, status, durationSeconds: reply.elapsedTime / 1000 });
    const operation = request.method === 'POST' ? AUTH_OPERATIONS[route] : undefined;
    if (operation) observer.authAttempted(operation, authOutcomeOf(status));
  });
}
