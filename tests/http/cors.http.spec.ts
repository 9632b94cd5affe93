import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { type HttpResponse, http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const APP = 'http://app.test:5173';
const FOREIGN = 'http://evil.test:5173';
const METHODS = ['get', 'post', 'patch', 'delete'];

const corsHeaders = (res: HttpResponse): string[] => Object.keys(res.headers).filter((name) => name.startsWith('access-control-'));
const listed = (value: string | string[] | undefined): string[] => [value ?? ''].flat().join(',').split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);
const preflight = (service: TestService, path: string, method: string, origin: string, requestHeaders = 'content-type,authorization') =>
  http(service.url, path, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method.toUpperCase(), 'access-control-request-headers': requestHeaders } });

describe('HTTP: CORS for browser apps (CORS_ORIGINS)', () => {
  describe('with CORS_ORIGINS set to two origins', () => {
    let service: TestService;
    let operations: Array<{ path: string; method: string }>;
    before(async () => {
      service = await startTestService({ CORS_ORIGINS: `${APP},http://localhost:5173`, STORAGE: 'memory' });
      const doc = (await http(service.url, '/docs/json', { method: 'GET' })).body;
      operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
        Object.keys(item).filter((method) => METHODS.includes(method)).map((method) => ({ path: path.replace('{id}', 'some-id'), method })),
      );
    });
    after(async () => service.dispose());

    it('answers the preflight of every documented operation 204 with the methods, headers and max-age, never credentials', async () => {
      expect(operations.length).to.be.greaterThan(10);
      for (const { path, method } of operations) {
        const res = await preflight(service, path, method, APP);
        const where = `${method} ${path}`;
        expect(res.status, where).to.equal(204);
        expect(res.headers['access-control-allow-origin'], where).to.equal(APP);
        expect(listed(res.headers['access-control-allow-methods']), where).to.include(method);
        expect(listed(res.headers['access-control-allow-headers']), where).to.include.members(['content-type', 'authorization']);
        expect(res.headers['access-control-max-age'], where).to.equal('600');
        expect(res.headers['access-control-allow-credentials'], where).to.equal(undefined);
        expect(listed(res.headers['vary']), where).to.include('origin');
        expect(res.text, where).to.equal('');
        expect(res.headers['x-request-id'], where).to.be.a('string');
        expect(res.headers['x-content-type-options'], where).to.equal('nosniff');
      }
    });

    it('preflights are not rate-limited: many in a row from one client all answer 204', async () => {
      const limited = await startTestService({ CORS_ORIGINS: APP, STORAGE: 'memory', RATE_LIMIT_MAX: '2' });
      try {
        const statuses = [];
        for (let i = 0; i < 5; i += 1) statuses.push((await preflight(limited, '/auth/sign-in', 'post', APP)).status);
        expect(statuses).to.deep.equal([204, 204, 204, 204, 204]);
      } finally {
        await limited.dispose();
      }
    });

    it('real answers carry the allowed origin and expose X-Request-Id, Retry-After and the rate-limit headers', async () => {
      const res = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'cors@example.com' }), { origin: APP });
      expect(res.status).to.equal(201);
      expect(res.headers['access-control-allow-origin']).to.equal(APP);
      expect(listed(res.headers['access-control-expose-headers'])).to.include.members([
        'x-request-id',
        'retry-after',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
      ]);
      expect(res.headers['access-control-allow-credentials']).to.equal(undefined);
      const me = await http(service.url, '/auth/me', { method: 'GET', headers: { origin: 'http://localhost:5173', authorization: `Bearer ${res.body.data.accesstoken}` } });
      expect(me.status).to.equal(200);
      expect(me.headers['access-control-allow-origin']).to.equal('http://localhost:5173');
    });

    it('error answers carry CORS headers too, so the page can read them (401, 404)', async () => {
      for (const [path, status] of [['/auth/me', 401], ['/no/such/route', 404]] as const) {
        const res = await http(service.url, path, { method: 'GET', headers: { origin: APP } });
        expect(res.status, path).to.equal(status);
        expect(res.headers['access-control-allow-origin'], path).to.equal(APP);
      }
    });

    it('gives another origin no CORS header at all: its preflight is an unknown route, its request is answered without them', async () => {
      const pre = await preflight(service, '/auth/sign-in', 'post', FOREIGN);
      expect(pre.status).to.equal(404);
      expect(corsHeaders(pre)).to.deep.equal([]);
      const res = await postJson(service.url, '/auth/sign-in', { email: 'cors@example.com', password: 'analytical engine 1843' }, { origin: FOREIGN });
      expect(res.status).to.equal(201);
      expect(corsHeaders(res)).to.deep.equal([]);
      for (const lookalike of [`${APP}/`, 'http://app.test', 'https://app.test:5173', 'null']) {
        expect(corsHeaders(await preflight(service, '/auth/sign-in', 'post', lookalike)), lookalike).to.deep.equal([]);
      }
    });

    it('adds nothing for a request without Origin (same-origin, curl)', async () => {
      const res = await http(service.url, '/health/live', { method: 'GET' });
      expect(res.status).to.equal(200);
      expect(corsHeaders(res)).to.deep.equal([]);
    });

    it('a 429 of the rate limit carries the origin, so the page can read Retry-After', async () => {
      const limited = await startTestService({ CORS_ORIGINS: APP, STORAGE: 'memory', RATE_LIMIT_MAX: '1' });
      try {
        await postJson(limited.url, '/auth/sign-in', {}, { origin: APP });
        const res = await postJson(limited.url, '/auth/sign-in', {}, { origin: APP });
        expect(res.status).to.equal(429);
        expect(res.headers['access-control-allow-origin']).to.equal(APP);
        expect(res.headers['retry-after']).to.match(/^\d+$/);
      } finally {
        await limited.dispose();
      }
    });
  });

  describe('with CORS_ORIGINS=*', () => {
    let service: TestService;
    before(async () => (service = await startTestService({ CORS_ORIGINS: '*', STORAGE: 'memory' })));
    after(async () => service.dispose());

    it('allows any origin with *, and never credentials (tokens travel in headers, not cookies)', async () => {
      const pre = await preflight(service, '/auth/me', 'get', FOREIGN);
      expect(pre.status).to.equal(204);
      expect(pre.headers['access-control-allow-origin']).to.equal('*');
      expect(pre.headers['access-control-allow-credentials']).to.equal(undefined);
      const res = await http(service.url, '/auth/me', { method: 'GET', headers: { origin: FOREIGN } });
      expect(res.headers['access-control-allow-origin']).to.equal('*');
    });
  });

  describe('without CORS_ORIGINS', () => {
    let service: TestService;
    before(async () => (service = await startTestService({ STORAGE: 'memory' })));
    after(async () => service.dispose());

    it('sends no CORS header to any origin, and has no preflight route', async () => {
      const pre = await preflight(service, '/auth/sign-in', 'post', APP);
      expect(pre.status).to.equal(404);
      expect(corsHeaders(pre)).to.deep.equal([]);
      const res = await http(service.url, '/health/live', { method: 'GET', headers: { origin: APP } });
      expect(corsHeaders(res)).to.deep.equal([]);
    });
  });
});
