import { expect } from 'chai';
import { http } from '../support/http-client.js';
import { SERVICE_OPERATIONS } from '../support/service-operations.js';
import { ERROR_TABLE } from '../../src/interfaces/http/shared/error-table.js';
import { impliedErrors } from '../../src/interfaces/http/shared/operation.js';
import { type OpenApiDocument, dereference, inlinedComponents, operationsOf, refsIn, resolvePointer, responseSchema, schemaErrors } from '../support/openapi-check.js';
import { type TestService, startTestService } from '../support/test-service.js';


/** The named components a client handles (resources, pages, the error envelope), at least. */
const NAMED_COMPONENTS = [
  'ErrorEnvelope',
  'FieldIssue',
  'User',
  'AuthResult',
  'UserResult',
  'Session',
  'SessionEntry',
  'SessionPage',
  'ActivityEvent',
  'ActivityPage',
  'AccountExport',
  'JwkSet',
  'EcPublicKey',
  'SignUpRequest',
  'SignUpResponse',
  'SignInRequest',
  'SignInResponse',
];

describe('HTTP: OpenAPI 3.1 document at /docs/json, and the server answering as documented', () => {
  let service: TestService;
  let doc: OpenApiDocument;
  before(async () => {
    service = await startTestService();
    doc = (await http(service.url, '/docs/json', { method: 'GET' })).body;
  });
  after(async () => service.dispose());

  const operations = () => operationsOf(doc);

  describe('structure', () => {
    it('is OpenAPI 3.1 with info, paths and components', () => {
      expect(doc['openapi']).to.match(/^3\.1\.\d+$/);
      expect(doc['info'].title).to.be.a('string').and.not.empty;
      expect(doc['info'].version).to.be.a('string').and.not.empty;
      expect(doc['components'].schemas).to.include.keys(NAMED_COMPONENTS);
      expect(Object.keys(doc['paths'])).to.include.members(['/auth/sign-up', '/auth/sign-in', '/auth/me', '/auth/me/activity', '/.well-known/jwks.json', '/health/live', '/health/ready', '/metrics']);
    });

    it('resolves every $ref inside the document', () => {
      const refs = refsIn(doc);
      expect(refs).to.not.be.empty;
      for (const ref of refs) expect(resolvePointer(doc, ref), ref).to.be.an('object');
    });

    it('gives every operation responses with descriptions, and every error response the envelope schema', () => {
      for (const { path, method, operation } of operations()) {
        expect(operation.responses, `${method} ${path}`).to.be.an('object').and.not.empty;
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          expect(response.description, `${method} ${path} ${status}`).to.be.a('string').and.not.empty;
          if (Number(status) >= 400) {
            expect(response.content['application/json'].schema, `${method} ${path} ${status}`).to.deep.equal({ $ref: '#/components/schemas/ErrorEnvelope' });
          }
        }
      }
    });

    it('documents request bodies derived from the yup schemas and the domain limits, with examples', () => {
      const body = (path: string) => {
        const media = doc['paths'][path].post.requestBody.content['application/json'];
        return { ...media, schema: dereference(doc, media.schema) };
      };
      const signUp = body('/auth/sign-up');
      expect(signUp.schema.required).to.deep.equal(['name', 'lastname', 'email', 'password']);
      expect(signUp.schema.properties.email).to.include({ type: 'string', maxLength: 254, format: 'idn-email' });
      expect(signUp.schema.properties.password).to.include({ minLength: 8, maxLength: 128 });
      expect(signUp.schema.properties.name).to.include({ maxLength: 100 });
      expect(Object.keys(signUp.examples)).to.deep.equal(['newUser']);
      const signIn = body('/auth/sign-in');
      expect(signIn.schema.required).to.deep.equal(['email', 'password']);
      expect(Object.keys(signIn.examples)).to.deep.equal(['registeredUser', 'wrongPassword']);
    });

    it('names every shape a client handles once: no request or response schema inlines a named component\'s shape', () => {
      expect(inlinedComponents(doc)).to.deep.equal([]);
    });

    it('the inline check is not vacuous: a copy of a named shape inlined in a response is reported', () => {
      const copy = structuredClone(doc);
      copy['paths']['/auth/me'].get.responses['200'].content['application/json'].schema = dereference(copy, { $ref: '#/components/schemas/GetCurrentUserResponse' });
      expect(inlinedComponents(copy)).to.include.members([
        '#/paths/~1auth~1me/get/responses/200/content/application~1json/schema inlines GetCurrentUserResponse',
        '#/paths/~1auth~1me/get/responses/200/content/application~1json/schema/properties/data/properties/user inlines User',
      ]);
    });

    it('does not require a body that may be left out (sign-out, resend), and requires every other one', () => {
      const optional = new Set(SERVICE_OPERATIONS.filter((op) => op.body?.optional === true).map((op) => op.operationId));
      expect([...optional]).to.include('signOut');
      for (const { path, method, operation } of operations().filter(({ operation }) => operation.requestBody)) {
        expect(operation.requestBody.required, `${method} ${path}`).to.equal(optional.has(operation.operationId) ? undefined : true);
      }
    });

    it('serves Swagger UI at /docs', async () => {
      const res = await http(service.url, '/docs', { method: 'GET' });
      expect(res.status).to.equal(200);
      expect(res.text).to.match(/swagger/i);
    });
  });

  describe('the documented examples, answered as documented', () => {
    const example = (path: string, name: string) => doc['paths'][path].post.requestBody.content['application/json'].examples[name].value;

    const expectDocumented = (path: string, method: string, res: { status: number; body: unknown }, expected: number) => {
      expect(res.status, `${method} ${path}`).to.equal(expected);
      const schema = responseSchema(doc, path, method, res.status);
      expect(schema, `status ${res.status} of ${method} ${path} is documented`).to.be.an('object');
      expect(schemaErrors(schema, res.body), `${method} ${path} ${res.status}: ${JSON.stringify(res.body)}`).to.equal(null);
    };

    const send = (path: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      http(service.url, path, { body: typeof body === 'string' ? body : JSON.stringify(body), headers });

    const cases: Array<[string, string, number]> = [
      ['/auth/sign-up', 'newUser', 201],
      ['/auth/sign-up', 'newUser', 409],
      ['/auth/sign-in', 'registeredUser', 201],
      ['/auth/sign-in', 'wrongPassword', 401],
    ];
    for (const [path, name, status] of cases) {
      it(`${path} example "${name}" answers ${status} matching the documented schema`, async () => {
        expectDocumented(path, 'post', await send(path, example(path, name)), status);
      });
    }

    it('400 for bodies breaking the documented schema (no longer documented as examples: they would be invalid ones)', async () => {
      const invalid: Array<[string, unknown]> = [
        ['/auth/sign-up', { name: '', lastname: 42, email: 'not-an-email', password: 'short' }],
        ['/auth/sign-in', { email: 'ada@example.com' }],
      ];
      for (const [path, body] of invalid) expectDocumented(path, 'post', await send(path, body), 400);
    });

    it('413 and 415 for the documented example made too large or sent as text match the documented schemas', async () => {
      for (const path of ['/auth/sign-up', '/auth/sign-in']) {
        const body = example(path, path.endsWith('up') ? 'newUser' : 'registeredUser');
        expectDocumented(path, 'post', await send(path, { ...body, padding: 'x'.repeat(17 * 1024) }), 413);
        expectDocumented(path, 'post', await send(path, JSON.stringify(body), { 'content-type': 'text/plain' }), 415);
      }
    });

    it('a 404 of no route is the documented error envelope', async () => {
      const res = await http(service.url, '/no/such/route', { method: 'GET' });
      expect(res.status).to.equal(404);
      expect(schemaErrors(dereference(doc, doc['components'].schemas.ErrorEnvelope), res.body)).to.equal(null);
    });

    it('the health probes answer as documented', async () => {
      for (const path of ['/health/live', '/health/ready']) {
        const res = await http(service.url, path, { method: 'GET' });
        expectDocumented(path, 'get', res, 200);
      }
    });

    it('the check is not vacuous: a body off the documented schema is rejected', () => {
      const schema = responseSchema(doc, '/auth/sign-up', 'post', 201);
      expect(schemaErrors(schema, { message: 'x', data: { user: { id: 'not-a-uuid', name: 'A', lastname: 'B', email: 'a@b.co' }, accesstoken: 't' } })).to.not.equal(null);
      expect(schemaErrors(responseSchema(doc, '/auth/sign-up', 'post', 400), { message: 'x', errors: [{ field: 1 }] })).to.not.equal(null);
    });
  });
});

describe('HTTP: the OpenAPI document lists every status each operation can answer', () => {
  let service: TestService;
  let doc: OpenApiDocument;
  before(async () => {
    service = await startTestService();
    doc = (await http(service.url, '/docs/json', { method: 'GET' })).body;
  });
  after(async () => service.dispose());

  const statuses = (path: string, method: string) => Object.keys(doc['paths'][path][method].responses);

  it('documents, for every declared operation, its success (and its alternative answer: sign-in 202) and the status of every code it declares or its shape implies', () => {
    for (const operation of SERVICE_OPERATIONS) {
      const path = operation.path.replace(/:([A-Za-z]+)/g, '{$1}');
      const expected = [operation.success.status, ...(operation.alternative ? [operation.alternative.status] : []), ...[...impliedErrors(operation), ...operation.errors].map((code) => ERROR_TABLE[code].status), ...Object.values(operation.ownErrors ?? {}).map((row) => row.status)];
      expect(statuses(path, operation.method.toLowerCase()), operation.operationId).to.have.members([...new Set(expected.map(String))]);
    }
  });

  it('documents every code of the error table on the operations that can answer it; 431 on every one', () => {
    const notOnAnOperation: Partial<Record<keyof typeof ERROR_TABLE, string>> = {
      NOT_FOUND: 'the answer of a route that is not an operation',
      MALFORMED_REQUEST: "a 400 closing the connection, before any route: documented in the table, not in an operation's 400",
    };
    const documented = new Set(SERVICE_OPERATIONS.flatMap((operation) => [...impliedErrors(operation), ...operation.errors]));
    expect(Object.keys(ERROR_TABLE).filter((code) => !documented.has(code as never) && !(code in notOnAnOperation))).to.deep.equal([]);
    for (const operation of SERVICE_OPERATIONS) {
      const responses = doc['paths'][operation.path.replace(/:([A-Za-z]+)/g, '{$1}')][operation.method.toLowerCase()].responses;
      expect(responses['431']?.description, operation.operationId).to.equal(ERROR_TABLE.HEADERS_TOO_LARGE.description);
    }
  });

  it('documents the configurable answers: sign-in 403 (REQUIRE_VERIFIED_EMAIL), 408, 413, 415, 429 and 503', () => {
    expect(statuses('/auth/sign-in', 'post')).to.include.members(['403', '408', '413', '415', '429', '503']);
    expect(doc['paths']['/auth/sign-in'].post.responses['403'].description).to.equal(ERROR_TABLE.EMAIL_NOT_VERIFIED.description);
  });

  it('documents 400, 408, 413 and 415 on DELETE, whose body Fastify reads when one is sent, and 503 on every operator route', () => {
    expect(statuses('/auth/sessions/{id}', 'delete')).to.include.members(['400', '408', '413', '415']);
    for (const path of ['/health/live', '/health/ready', '/metrics']) expect(statuses(path, 'get'), path).to.include.members(['500', '503']);
  });
});
