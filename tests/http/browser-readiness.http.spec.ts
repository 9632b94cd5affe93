import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { type HttpResponse, http, postJson } from '../support/http-client.js';
import { type OpenApiDocument, dereference, operationsOf, responseSchema, schemaErrors } from '../support/openapi-check.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type TestService, startTestService } from '../support/test-service.js';

const PASSWORD = 'analytical engine 1843';
const carriesToken = (res: HttpResponse) => /"(accesstoken|refreshtoken)"/.test(res.text);

describe('HTTP: usable from browsers and client generators (caching, HSTS, CSP, OpenAPI conventions)', () => {
  let service: TestService;
  let doc: OpenApiDocument;
  before(async () => {
    service = await startTestService({ STORAGE: 'memory' });
    doc = (await http(service.url, '/docs/json', { method: 'GET' })).body;
  });
  after(async () => service.dispose());

  const operations = () => operationsOf(doc);

  describe('caching of token answers (RFC 6749 section 5.1)', () => {
    it('every answer that carries a token says Cache-Control: no-store and Pragma: no-cache (sign-up, sign-in, refresh)', async () => {
      const email = 'cache@example.com';
      const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
      const inAgain = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
      const refreshed = await postJson(service.url, '/auth/refresh', { refreshtoken: inAgain.body.data.refreshtoken });
      for (const [name, res, status] of [['sign-up', up, 201], ['sign-in', inAgain, 201], ['refresh', refreshed, 200]] as const) {
        expect(res.status, name).to.equal(status);
        expect(carriesToken(res), name).to.equal(true);
        expect(res.headers['cache-control'], name).to.equal('no-store');
        expect(res.headers['pragma'], name).to.equal('no-cache');
      }
    });

    it('the document declares both headers on every success whose body has a token field', () => {
      const withTokens = operations().flatMap(({ path, method, operation }) =>
        Object.entries(operation.responses as Record<string, any>)
          .filter(([status, response]) => status.startsWith('2') && /"(accesstoken|refreshtoken)"/.test(JSON.stringify(responseSchema(doc, path, method, Number(status)) ?? response)))
          .map(([status, response]) => ({ where: `${method} ${path} ${status}`, headers: response.headers ?? {} })),
      );
      expect(withTokens.map((entry) => entry.where)).to.include.members(['post /auth/sign-up 201', 'post /auth/sign-in 201', 'post /auth/refresh 200']);
      for (const { where, headers } of withTokens) {
        expect(headers['cache-control']?.schema, where).to.deep.include({ const: 'no-store' });
        expect(headers['pragma']?.schema, where).to.deep.include({ const: 'no-cache' });
      }
    });
  });

  describe('plain HTTP on any host, HTTPS behind a trusted proxy', () => {
    it('sends no HSTS or COOP over plain HTTP, and no upgrade-insecure-requests on /docs or its assets', async () => {
      for (const path of ['/docs/', '/docs/static/swagger-initializer.js', '/docs/json', '/auth/me']) {
        const res = await http(service.url, path, { method: 'GET', headers: { host: 'docs.test:3000' } });
        expect(res.status, path).to.be.oneOf([200, 401]);
        expect(res.headers['strict-transport-security'], path).to.equal(undefined);
        expect(res.headers['cross-origin-opener-policy'], path).to.equal(undefined);
        expect(String(res.headers['content-security-policy']), path).to.not.include('upgrade-insecure-requests');
      }
    });

    it('ignores X-Forwarded-Proto from a proxy it does not trust', async () => {
      const res = await http(service.url, '/health/live', { method: 'GET', headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers['strict-transport-security']).to.equal(undefined);
    });

    it('sends HSTS and COOP when a trusted proxy says the request came over HTTPS', async () => {
      const proxied = await startTestService({ STORAGE: 'memory', TRUST_PROXY: 'loopback' });
      try {
        const secure = await http(proxied.url, '/health/live', { method: 'GET', headers: { 'x-forwarded-proto': 'https' } });
        expect(secure.headers['strict-transport-security']).to.match(/^max-age=\d+; includeSubDomains$/);
        expect(secure.headers['cross-origin-opener-policy']).to.equal('same-origin');
        const plain = await http(proxied.url, '/health/live', { method: 'GET', headers: { 'x-forwarded-proto': 'http' } });
        expect(plain.headers['strict-transport-security']).to.equal(undefined);
        expect(plain.headers['cross-origin-opener-policy']).to.equal(undefined);
      } finally {
        await proxied.dispose();
      }
    });
  });

  describe('OpenAPI conventions for client generators', () => {
    it('lists one server: relative by default, PUBLIC_API_URL when set', async () => {
      expect(doc['servers']).to.deep.equal([{ url: '/', description: 'The host serving this document' }]);
      const configured = await startTestService({ STORAGE: 'memory', PUBLIC_API_URL: 'https://api.example.com' });
      try {
        expect((await http(configured.url, '/docs/json', { method: 'GET' })).body.servers).to.deep.equal([{ url: 'https://api.example.com' }]);
      } finally {
        await configured.dispose();
      }
    });

    it('gives every operation a unique operationId, security (bearer or an explicit []), and a described tag', () => {
      const ids = operations().map(({ operation }) => operation.operationId);
      expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)), JSON.stringify(ids)).to.equal(true);
      expect(new Set(ids).size).to.equal(ids.length);
      const tags = new Map((doc['tags'] as Array<{ name: string; description?: string }>).map((tag) => [tag.name, tag.description]));
      for (const { path, method, operation } of operations()) {
        expect(operation.security, `${method} ${path}`).to.be.an('array');
        for (const tag of operation.tags) expect(tags.get(tag), tag).to.be.a('string').and.not.empty;
      }
    });

    it('declares X-Request-Id on every response, and the rate-limit headers on every /auth/ response', () => {
      for (const { path, method, operation } of operations()) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          const names = Object.keys(response.headers ?? {});
          expect(names, `${method} ${path} ${status}`).to.include('x-request-id');
          if (path.startsWith('/auth/')) expect(names, `${method} ${path} ${status}`).to.include.members(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
        }
      }
      expect(Object.keys(doc['paths']['/health/ready'].get.responses['503'].headers)).to.include('retry-after');
    });

    it('accepts an internationalised address and answers with it, matching the documented (idn-email) schema', async () => {
      const res = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'jösé@exämple.com' }));
      expect(res.status).to.equal(201);
      expect(res.body.data.user.email).to.equal('jösé@exämple.com');
      expect(schemaErrors(responseSchema(doc, '/auth/sign-up', 'post', 201), res.body)).to.equal(null);
      expect(doc['components'].schemas.User.properties.email.format).to.equal('idn-email');
      const strict = addFormats.default(new Ajv2020());
      expect(strict.validate({ type: 'string', format: 'email' }, res.body.data.user.email), 'format: email would reject the server\'s own answer').to.equal(false);
      expect(schemaErrors(responseSchema(doc, '/auth/sign-up', 'post', 201), { ...res.body, data: { ...res.body.data, user: { ...res.body.data.user, email: 'no at sign' } } })).to.match(/idn-email/);
    });

    it('documents activity types and reasons as closed sets that the real answers stay within', async () => {
      const entry = dereference(doc, doc['paths']['/auth/me/activity'].get.responses['200']);
      expect(JSON.stringify(entry)).to.include('"enum"');
      const email = 'activity-enum@example.com';
      await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
      await postJson(service.url, '/auth/sign-in', { email, password: 'wrong password here' });
      const signedIn = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
      await http(service.url, '/auth/sign-out', { headers: { authorization: `Bearer ${signedIn.body.data.accesstoken}` } });
      const fresh = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
      const activity = await http(service.url, '/auth/me/activity', { method: 'GET', headers: { authorization: `Bearer ${fresh.body.data.accesstoken}` } });
      expect(activity.status).to.equal(200);
      const types = activity.body.data.events.map((event: { type: string }) => event.type);
      expect(types).to.include.members(['sign_in_failed', 'user_signed_in', 'user_registered']);
      expect(schemaErrors(responseSchema(doc, '/auth/me/activity', 'get', 200), activity.body)).to.equal(null);
      const broken = { ...activity.body, data: { ...activity.body.data, events: [{ ...activity.body.data.events[0], type: 'made_up' }] } };
      expect(schemaErrors(responseSchema(doc, '/auth/me/activity', 'get', 200), broken)).to.match(/allowed values/);
    });
  });
});
