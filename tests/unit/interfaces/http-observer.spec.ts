import { expect } from 'chai';
import Fastify from 'fastify';
import { type AuthOperation, type AuthOutcome, type HttpObserver, type RequestSample, authOutcomeOf, observeRequests } from '../../../src/interfaces/http/http-observer.js';

class RecordingObserver implements HttpObserver {
  readonly samples: RequestSample[] = [];
  readonly outcomes: Array<[AuthOperation, AuthOutcome]> = [];

  requestCompleted(sample: RequestSample): void {
    this.samples.push(sample);
  }

  authAttempted(operation: AuthOperation, outcome: AuthOutcome): void {
    this.outcomes.push([operation, outcome]);
  }
}

describe('HTTP observer: outcomes read from the response status', () => {
  it('maps every status the auth routes answer to its outcome label', () => {
    const table = [201, 400, 413, 415, 409, 401, 429, 503, 500].map((status) => [status, authOutcomeOf(status)]);
    expect(table).to.deep.equal([
      [201, 'success'],
      [400, 'invalid_input'],
      [413, 'invalid_input'],
      [415, 'invalid_input'],
      [409, 'duplicate'],
      [401, 'invalid_credentials'],
      [429, 'throttled'],
      [503, 'shed'],
      [500, 'error'],
    ]);
  });

  it('reports a 429 from any route handler as a throttled sign-in, and the route pattern, not the URL', async () => {
    const app = Fastify();
    const observer = new RecordingObserver();
    observeRequests(app, observer);
    app.post('/auth/sign-in', async (_request, reply) => reply.code(429).send({ message: 'Too many requests', errors: [] }));
    app.get('/users/:id', async () => ({ ok: true }));
    try {
      await app.inject({ method: 'POST', url: '/auth/sign-in', payload: {} });
      await app.inject({ method: 'GET', url: '/users/42' });
      expect(observer.outcomes).to.deep.equal([['sign_in', 'throttled']]);
      expect(observer.samples.map(({ route, method, status }) => ({ route, method, status }))).to.deep.equal([
        { route: '/auth/sign-in', method: 'POST', status: 429 },
        { route: '/users/:id', method: 'GET', status: 200 },
      ]);
    } finally {
      await app.close();
    }
  });
});
