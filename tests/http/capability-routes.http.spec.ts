import { expect } from 'chai';
import { ApplicationError } from '../../src/application/errors.js';
import { CAPABILITIES } from '../../src/capabilities/index.js';
import type { ServiceCapability } from '../../src/main.js';
import { defineOperation } from '../../src/interfaces/http/shared/operation.js';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

/** A capability of the tests' own: one route, one error of its own answered as its row says, one it did not declare. */
class FixtureRefused extends ApplicationError<'FIXTURE_REFUSED'> {
  readonly code = 'FIXTURE_REFUSED';

  constructor() {
    super('Fixture refused', [{ field: 'id', code: 'UNKNOWN', message: 'the fixture refuses this id' }]);
  }
}

class FixtureFault extends ApplicationError<'FIXTURE_FAULT'> {
  readonly code = 'FIXTURE_FAULT';

  constructor() {
    super('Fixture fault', [{ field: null, message: 'never shown' }]);
  }
}

const fixtureUseCases = () => ({
  fixtureEcho: {
    execute: async (id: string, userId: string) => {
      if (id === 'no') throw new FixtureRefused();
      if (id === 'fault') throw new FixtureFault();
      return Promise.resolve({ id, userId });
    },
  },
});

const REFUSED_ROW = { status: 409, message: 'Fixture refused', issues: [], description: 'The fixture refuses this id', outcome: 'error' };

const fixture: ServiceCapability = {
  name: 'fixture',
  squad: '@account-service/tests',
  folders: [],
  tables: [],
  events: {},
  settings: {},
  errors: { FIXTURE_REFUSED: 'the fixture refuses this id: 409' },
  bind: () => undefined,
  useCases: fixtureUseCases,
  commands: [],
  // A protocol engine's way in: it reads the body itself, whatever its type, and writes its own answer.
  rawRoutes: () => [
    {
      methods: ['GET', 'POST'],
      path: '/fixture-engine/*',
      handle: async (request, response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks).toString('utf8');
        if (request.url === '/fixture-engine/page') response.setHeader('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
        response.writeHead(request.url === '/fixture-engine/missing' ? 404 : 200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`${request.method ?? ''} ${request.url ?? ''} ${request.headers['content-type'] ?? '-'} ${body}`);
      },
    },
  ],
  operations: [
    defineOperation<Record<string, never>, 'bearer', ReturnType<typeof fixtureUseCases>>({
      method: 'GET',
      path: '/auth/fixture/:id',
      operationId: 'fixtureEcho',
      summary: 'Echo an id, as the bearer',
      tag: 'account',
      auth: 'bearer',
      hashes: false,
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      success: { status: 200, message: 'Echoed', description: 'The id and the bearer', data: { type: 'object', properties: { id: { type: 'string' }, userId: { type: 'string' } } } },
      errors: [],
      ownErrors: { FIXTURE_REFUSED: REFUSED_ROW },
      run: async ({ params, principal }, { fixtureEcho }) => fixtureEcho.execute(params['id'] ?? '', principal.userId),
    }),
  ],
};

describe("HTTP: a capability's operations and its own errors, from its manifest (issue 62)", function () {
  this.timeout(30_000);
  let service: TestService;
  let token = '';
  before(async () => {
    service = await startTestService({ RATE_LIMIT_MAX: '10000' }, { capabilities: [...CAPABILITIES, fixture] });
    token = (await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'fixture@example.com' }))).body.data.accesstoken as string;
  });
  after(async () => service.dispose());
  const get = (path: string, bearer: string | null = token) => http(service.url, path, { method: 'GET', headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` } });

  it('serves its route with the core rules: the envelope, the bearer it runs as, 401 without one', async () => {
    const echoed = await get('/auth/fixture/yes');
    expect([echoed.status, echoed.body.message, echoed.body.data.id]).to.deep.equal([200, 'Echoed', 'yes']);
    expect(echoed.body.data.userId).to.be.a('string').with.length.above(0);
    expect(echoed.headers['cache-control']).to.equal('no-store');
    expect((await get('/auth/fixture/yes', null)).status).to.equal(401);
  });

  it('answers its declared error as its row says, with the issues of the error; an undeclared one is a 500 showing nothing', async () => {
    const refused = await get('/auth/fixture/no');
    expect([refused.status, refused.body]).to.deep.equal([409, { message: 'Fixture refused', code: 'FIXTURE_REFUSED', errors: [{ field: 'id', code: 'UNKNOWN', message: 'the fixture refuses this id' }] }]);
    const fault = await get('/auth/fixture/fault');
    expect(fault.status).to.equal(500);
    expect(JSON.stringify(fault.body)).not.to.include('never shown');
  });

  it('is documented in the OpenAPI document with its own error', async () => {
    const doc = (await http(service.url, '/docs/json', { method: 'GET' })).body;
    const responses = doc.paths['/auth/fixture/{id}'].get.responses;
    expect(responses['409'].description).to.equal(REFUSED_ROW.description);
    expect(Object.keys(responses)).to.include.members(['200', '401', '500']);
  });

  it('is not served without its manifest in the list', async () => {
    const plain = await startTestService({ RATE_LIMIT_MAX: '10000' });
    try {
      expect((await http(plain.url, '/auth/fixture/yes', { method: 'GET' })).status).to.equal(404);
    } finally {
      await plain.dispose();
    }
  });

  it("serves its raw routes as they arrive: the body unread, any type, the handler's answer with the service's headers", async () => {
    const form = await http(service.url, '/fixture-engine/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=abc' });
    expect([form.status, form.text]).to.deep.equal([200, 'POST /fixture-engine/token application/x-www-form-urlencoded grant_type=authorization_code&code=abc']);
    expect(form.headers['x-request-id']).to.be.a('string');
    expect(form.headers['x-content-type-options']).to.equal('nosniff');
    const json = await http(service.url, '/fixture-engine/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"not":"parsed by the service"' });
    expect([json.status, json.text]).to.deep.equal([200, 'POST /fixture-engine/token application/json {"not":"parsed by the service"']);
    const page = await http(service.url, '/fixture-engine/page', { method: 'GET' });
    expect(page.headers['content-security-policy']).to.equal("default-src 'none'; frame-ancestors 'none'");
    expect((await http(service.url, '/fixture-engine/missing', { method: 'GET' })).status).to.equal(404);
  });

  it('keeps the raw routes out of the OpenAPI document, and answers a path outside them as ever (404 envelope)', async () => {
    const doc = (await http(service.url, '/docs/json', { method: 'GET' })).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/fixture-engine'))).to.deep.equal([]);
    const elsewhere = await http(service.url, '/fixture-engines', { method: 'GET' });
    expect([elsewhere.status, elsewhere.body.code]).to.deep.equal([404, 'NOT_FOUND']);
  });
});
