import { expect } from 'chai';
import type { OpenApiDocument } from '../../support/openapi-check.js';
import { type Observation, observations, undocumentedStatuses } from '../../support/observed-statuses.js';
import { http } from '../../support/http-client.js';
import { createLogger } from '../../../src/infrastructure/logging/logger.js';
import { buildHttpServer } from '../../../src/interfaces/http/server.js';
import { httpServerOptions } from '../../support/http-server-options.js';

const doc: OpenApiDocument = {
  paths: {
    '/auth/sign-in': { post: { responses: { 201: {}, 401: {}, 403: {} } } },
    '/auth/sessions/{id}': { delete: { responses: { 204: {}, 404: {} } } },
  },
};

describe('observed statuses against the OpenAPI document (the check run after the HTTP suites)', () => {
  it('reports a status the document does not list for the operation, by route pattern or by raw path', () => {
    const seen: Observation[] = [
      { method: 'POST', route: '/auth/sign-in', status: 201 },
      { method: 'POST', route: '/auth/sign-in', status: 418 },
      { method: 'POST', path: '/auth/sign-in', status: 418 },
      { method: 'DELETE', path: '/auth/sessions/4f1c', status: 413 },
      { method: 'DELETE', route: '/auth/sessions/:id', status: 404 },
    ];
    expect(undocumentedStatuses(doc, seen)).to.deep.equal(['DELETE /auth/sessions/{id} 413, seen 1 time', 'POST /auth/sign-in 418, seen 2 times']);
  });

  it('leaves out answers of routes the document does not list: no route, another method, another path', () => {
    const seen: Observation[] = [
      { method: 'GET', path: '/no/such/route', status: 404 },
      { method: 'OPTIONS', path: '/auth/sign-in', status: 204 },
      { method: 'GET', route: '/auth/sessions/:id', status: 404 },
      { method: 'DELETE', path: '/auth/sessions/a/b', status: 404 },
      { method: 'GET', route: '/docs/json', status: 200 },
    ];
    expect(undocumentedStatuses(doc, seen)).to.deep.equal([]);
  });

  it('records what Fastify answers (inject included, with the route pattern) and what a real socket gets, each answer once', async () => {
    const app = buildHttpServer(httpServerOptions(createLogger('silent')));
    try {
      const before = observations().length;
      await app.inject({ method: 'DELETE', url: '/auth/sessions/x', headers: { 'content-type': 'text/plain' }, payload: 'x' });
      expect(observations().slice(before)).to.deep.include({ method: 'DELETE', status: 415, route: '/auth/sessions/:id' });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const res = await http(url, '/health/live', { method: 'GET' });
      expect(res.status).to.equal(200);
      const live = observations().slice(before).filter((seen) => seen.route === '/health/live' || seen.path === '/health/live');
      expect(live, 'one answer, recorded once with its route').to.deep.equal([{ method: 'GET', status: 200, route: '/health/live' }]);
    } finally {
      await app.close();
    }
  });
});
