import { expect } from 'chai';
import Fastify from 'fastify';
import { pino } from 'pino';
import { captureLogs } from '../../support/log-capture.js';
import { TooManyAttempts } from '../../../src/domain/domain-error.js';
import { HttpError, sendError, trackErrorCodes } from '../../../src/interfaces/http/shared/error-mapper.js';
import { AUTH_OUTCOMES } from '../../../src/interfaces/http/shared/error-table.js';
import { type AuthOperation, type HttpObserver, type RequestSample, authOutcomeOf, observeAnswers } from '../../../src/interfaces/http/http-observer.js';

class RecordingObserver implements HttpObserver {
  readonly declared: Array<[readonly AuthOperation[], readonly string[]]> = [];
  readonly samples: RequestSample[] = [];
  readonly outcomes: Array<[AuthOperation, string]> = [];

  declareAuthOutcomes(operations: readonly AuthOperation[], outcomes: readonly string[]): void {
    this.declared.push([operations, outcomes]);
  }

  requestCompleted(sample: RequestSample): void {
    this.samples.push(sample);
  }

  authAttempted(operation: AuthOperation, outcome: string): void {
    this.outcomes.push([operation, outcome]);
  }
}

describe('HTTP observer: outcomes read from the error table', () => {
  it("maps an answer to its error code's outcome, a success to 'success' and an unmapped failure to 'error'", () => {
    const table = [
      [null, 201],
      ['INVALID_INPUT', 400],
      ['BODY_TOO_LARGE', 413],
      ['EMAIL_ALREADY_REGISTERED', 409],
      ['INVALID_CREDENTIALS', 401],
      ['TOO_MANY_ATTEMPTS', 429],
      ['OVERLOADED', 503],
      ['STORE_UNAVAILABLE', 503],
      ['INTERNAL', 500],
      [null, 502],
    ] as const;
    expect(table.map(([code, status]) => authOutcomeOf(code, status))).to.deep.equal([
      'success', 'invalid_input', 'invalid_input', 'duplicate', 'invalid_credentials', 'throttled', 'shed', 'store_unavailable', 'error', 'error',
    ]);
    expect(AUTH_OUTCOMES).to.include.members(['success', 'invalid_input', 'duplicate', 'invalid_credentials', 'throttled', 'shed', 'store_unavailable', 'error']);
  });

  it('declares every outcome once, reports a throttled sign-in by its code, and the route pattern, not the URL', async () => {
    const app = Fastify();
    trackErrorCodes(app);
    const observer = new RecordingObserver();
    observeAnswers(app, { logger: pino({ level: 'silent' }), observer, observed: new Map([['/auth/sign-up', 'sign_up'], ['/auth/sign-in', 'sign_in']]) });
    app.setErrorHandler(async (error, _request, reply) => sendError(reply, error));
    app.post('/auth/sign-in', async () => {
      throw new TooManyAttempts(60);
    });
    app.post('/auth/sign-up', async () => {
      throw new HttpError('UNSUPPORTED_MEDIA_TYPE');
    });
    app.get('/users/:id', async () => ({ ok: true }));
    try {
      const throttled = await app.inject({ method: 'POST', url: '/auth/sign-in', payload: {} });
      await app.inject({ method: 'POST', url: '/auth/sign-up', payload: {} });
      await app.inject({ method: 'GET', url: '/users/42' });
      expect(throttled.statusCode).to.equal(429);
      expect(throttled.headers['retry-after']).to.equal('60');
      expect(observer.declared).to.deep.equal([[['sign_up', 'sign_in'], AUTH_OUTCOMES]]);
      expect(observer.outcomes).to.deep.equal([['sign_in', 'throttled'], ['sign_up', 'invalid_input']]);
      expect(observer.samples.map(({ route, method, status }) => ({ route, method, status }))).to.deep.equal([
        { route: '/auth/sign-in', method: 'POST', status: 429 },
        { route: '/auth/sign-up', method: 'POST', status: 415 },
        { route: '/users/:id', method: 'GET', status: 200 },
      ]);
    } finally {
      await app.close();
    }
  });
  it('writes one access line per answer in the same hook, with or without an observer, and none below its level', async () => {
    for (const observer of [new RecordingObserver(), undefined]) {
      const logs = captureLogs('info');
      const app = Fastify();
      trackErrorCodes(app);
      observeAnswers(app, { logger: logs.logger, observer, observed: new Map([['/auth/sign-in', 'sign_in']]) });
      app.get('/users/:id', async () => ({ ok: true }));
      app.get('/quiet', { config: { quietLog: true } }, async () => ({ ok: true }));
      try {
        await app.inject({ method: 'GET', url: '/users/42' });
        await app.inject({ method: 'GET', url: '/quiet' });
        await app.inject({ method: 'GET', url: '/nowhere' });
        const lines = logs.parsed().map(({ msg, method, route, status }) => ({ msg, method, route, status }));
        expect(lines).to.deep.equal([
          { msg: 'request completed', method: 'GET', route: '/users/:id', status: 200 },
          { msg: 'request completed', method: 'GET', route: null, status: 404 },
        ]);
        if (observer) expect(observer.samples.map(({ route, status }) => [route, status])).to.deep.equal([['/users/:id', 200], ['/quiet', 200], ['unmatched', 404]]);
      } finally {
        await app.close();
      }
    }
  });
});
