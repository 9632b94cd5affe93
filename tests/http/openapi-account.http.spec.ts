import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type OpenApiDocument, documentedHeaders, undocumented } from '../support/openapi-check.js';
import { type TestService, startTestService } from '../support/test-service.js';

const get = (url: string, path: string, token?: string) =>
  http(url, path, { method: 'GET', headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

const docOf = async (service: TestService): Promise<OpenApiDocument> => (await get(service.url, '/docs/json')).body;

describe('HTTP: OpenAPI document for the authenticated routes, the JWKS and rate limiting, and the answers matching it', () => {
  let service: TestService;
  let doc: OpenApiDocument;
  let token: string;
  before(async () => {
    service = await startTestService();
    doc = await docOf(service);
    token = (await postJson(service.url, '/auth/sign-up', aSignUpBody())).body.data.accesstoken;
    expect((await postJson(service.url, '/auth/sign-in', { email: 'ada@example.com', password: 'a wrong guess' })).status).to.equal(401);
  });
  after(async () => service.dispose());

  const expectDocumented = (path: string, res: { status: number; headers: Record<string, unknown>; body: unknown }, status: number) => {
    expect(res.status, `GET ${path}`).to.equal(status);
    expect(undocumented(doc, path, 'get', res), `GET ${path} ${status}`).to.deep.equal([]);
  };

  describe('structure', () => {
    it('lists every route: auth, account, JWKS, health and metrics', () => {
      expect(Object.keys(doc['paths'])).to.include.members([
        '/auth/sign-up',
        '/auth/sign-in',
        '/auth/me',
        '/auth/me/activity',
        '/.well-known/jwks.json',
        '/health/live',
        '/health/ready',
        '/metrics',
      ]);
    });

    it('declares a bearer security scheme, required by the /auth/me routes, and states security: [] on public ones', () => {
      expect(doc['components'].securitySchemes.bearerAuth).to.include({ type: 'http', scheme: 'bearer' });
      expect(doc['paths']['/auth/me'].get.security).to.deep.equal([{ bearerAuth: [] }]);
      expect(doc['paths']['/auth/me/activity'].get.security).to.deep.equal([{ bearerAuth: [] }]);
      for (const path of ['/auth/sign-up', '/auth/sign-in']) expect(doc['paths'][path].post.security, path).to.deep.equal([]);
      expect(doc['paths']['/.well-known/jwks.json'].get.security).to.deep.equal([]);
    });

    it('documents 429 with Retry-After on every rate-limited route, and 503 on the two that hash passwords', () => {
      const rateLimited: Array<[string, string]> = [['/auth/sign-up', 'post'], ['/auth/sign-in', 'post'], ['/auth/me', 'get'], ['/auth/me/activity', 'get']];
      for (const [path, method] of rateLimited) {
        expect(Object.keys(documentedHeaders(doc, path, method, 429)), `${method} ${path}`).to.have.members(['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']);
      }
      for (const path of ['/auth/sign-up', '/auth/sign-in']) expect(doc['paths'][path].post.responses).to.have.property('503');
      expect(doc['paths']['/auth/sign-in'].post.responses['429'].description).to.match(/sign-in attempts/);
    });

    it('documents the activity query (limit 1..100, default 20; cursor) and the 401 challenge header', () => {
      const parameters: Array<Record<string, any>> = doc['paths']['/auth/me/activity'].get.parameters;
      const query = Object.fromEntries(parameters.filter((p) => p['in'] === 'query').map((p) => [p['name'], p['schema']]));
      expect(query['limit']).to.include({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
      expect(query['cursor']).to.include({ type: 'string' });
      for (const path of ['/auth/me', '/auth/me/activity']) expect(documentedHeaders(doc, path, 'get', 401), path).to.have.property('www-authenticate');
    });
  });

  describe('real answers validate against the schema documented for their status, headers included', () => {
    it('GET /auth/me 200', async () => {
      const res = await get(service.url, '/auth/me', token);
      expectDocumented('/auth/me', res, 200);
      expect(res.body.data.user.email).to.equal('ada@example.com');
    });

    it('GET /auth/me/activity 200, with a failure reason, and a page with a cursor', async () => {
      const all = await get(service.url, '/auth/me/activity', token);
      expectDocumented('/auth/me/activity', all, 200);
      expect(all.body.data.events.map((event: { type: string; reason?: string }) => [event.type, event.reason])).to.deep.equal([
        ['sign_in_failed', 'wrong_password'],
        ['session_started', undefined],
        ['email_verification_requested', undefined],
        ['user_registered', undefined],
      ]);
      const page = await get(service.url, '/auth/me/activity?limit=1', token);
      expectDocumented('/auth/me/activity', page, 200);
      expect(page.body.data.nextcursor).to.be.a('string');
    });

    it('401 without a token, with the challenge, on both /auth/me routes', async () => {
      for (const path of ['/auth/me', '/auth/me/activity']) {
        const res = await get(service.url, path);
        expectDocumented(path, res, 401);
        expect(res.headers['www-authenticate']).to.equal('Bearer realm="account-service"');
      }
    });

    it('400 for a bad limit or cursor keeps the route\'s own messages (the query schema is documentation only)', async () => {
      for (const [query, field, message] of [
        ['limit=0', 'limit', 'must be an integer from 1 to 100'],
        ['limit=abc', 'limit', 'must be an integer from 1 to 100'],
        ['cursor=not-ours', 'cursor', 'is not a valid cursor'],
      ]) {
        const res = await get(service.url, `/auth/me/activity?${query}`, token);
        expectDocumented('/auth/me/activity', res, 400);
        expect(res.body, query).to.deep.equal({ message: 'Invalid input data', code: field === 'cursor' ? 'INVALID_CURSOR' : 'INVALID_INPUT', errors: [{ field, code: field === 'cursor' ? 'INVALID_FORMAT' : 'OUT_OF_RANGE', message }] });
      }
    });

    it('GET /.well-known/jwks.json 200 keeps every public member of the key', async () => {
      const res = await get(service.url, '/.well-known/jwks.json');
      expectDocumented('/.well-known/jwks.json', res, 200);
      expect(Object.keys(res.body.keys[0]).sort()).to.deep.equal(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    });

    it('the header check is not vacuous: a missing or wrong documented header is reported', () => {
      const res = { status: 200, headers: { 'cache-control': 'public, max-age=1' }, body: { keys: [] } };
      expect(undocumented(doc, '/.well-known/jwks.json', 'get', res).join('\n')).to.match(/header cache-control/).and.match(/body/);
      const present = { 'x-request-id': 'r1', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '60' };
      expect(undocumented(doc, '/auth/me', 'get', { status: 401, headers: present, body: { message: 'x', code: 'INVALID_TOKEN', errors: [] } })).to.deep.equal([
        'header www-authenticate is documented but missing',
      ]);
    });
  });
});

describe('HTTP: 429 answers match the OpenAPI document', () => {
  let service: TestService;
  let throttled: TestService;
  let doc: OpenApiDocument;
  before(async () => {
    service = await startTestService({ RATE_LIMIT_MAX: '1' });
    throttled = await startTestService({ THROTTLE_MAX_FAILURES: '1' });
    doc = await docOf(service);
  });
  after(async () => Promise.all([service.dispose(), throttled.dispose()]));

  it('per-account sign-in throttling answers 429 "Too many sign-in attempts" with Retry-After, as documented', async () => {
    await postJson(throttled.url, '/auth/sign-up', aSignUpBody());
    const wrong = { email: 'ada@example.com', password: 'a wrong guess' };
    expect((await postJson(throttled.url, '/auth/sign-in', wrong)).status).to.equal(401);
    const res = await postJson(throttled.url, '/auth/sign-in', wrong);
    expect(res.status).to.equal(429);
    expect(res.body.message).to.equal('Too many sign-in attempts');
    expect(undocumented(doc, '/auth/sign-in', 'post', res)).to.deep.equal([]);
  });

  it('the per-client limit answers 429 "Too many requests" with Retry-After, as documented, on every rate-limited route', async () => {
    const requests: Array<[string, string, () => Promise<Awaited<ReturnType<typeof http>>>]> = [
      ['/auth/sign-up', 'post', () => postJson(service.url, '/auth/sign-up', aSignUpBody())],
      ['/auth/sign-in', 'post', () => postJson(service.url, '/auth/sign-in', { email: 'ada@example.com', password: 'whatever it is' })],
      ['/auth/me', 'get', () => get(service.url, '/auth/me')],
      ['/auth/me/activity', 'get', () => get(service.url, '/auth/me/activity')],
    ];
    // RATE_LIMIT_MAX=1 per client across the /auth routes: the client's first request passes, every later one is refused.
    expect((await requests[0]?.[2]())?.status, 'the first request').to.equal(201);
    for (const [path, method, send] of requests) {
      const res = await send();
      expect(res.status, `${method} ${path}`).to.equal(429);
      expect(res.body.message).to.equal('Too many requests');
      expect(undocumented(doc, path, method, res), `${method} ${path}`).to.deep.equal([]);
    }
  });
});
