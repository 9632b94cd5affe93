import { FIELD_ISSUE_CODES } from '../../src/domain/domain-error.js';
import { expect } from 'chai';
import fc from 'fast-check';
import { type HttpResponse, http } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const endpoint = fc.constantFrom('/auth/sign-up', '/auth/sign-in');
const json = { 'content-type': 'application/json' };

const anyJson = fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' });
const fieldValue = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.emailAddress(),
  fc.constantFrom('analytical engine 1843', 'password123', '', ' ', 'ada@example.com'),
  fc.jsonValue({ maxDepth: 2 }),
);
const withExpectedKeys = fc.record(
  { name: fieldValue, lastname: fieldValue, email: fieldValue, password: fieldValue, extra: anyJson },
  { requiredKeys: [] },
);

/** An entry naming a field carries that field's code (one of the documented ones); one about the whole body has none. */
const isFieldIssue = (entry: unknown): boolean => {
  const issue = entry as { field?: unknown; code?: unknown; message?: unknown };
  if (typeof issue.message !== 'string') return false;
  if (issue.field === null) return Object.keys(issue).sort().join() === 'field,message';
  return typeof issue.field === 'string' && typeof issue.code === 'string' && Object.hasOwn(FIELD_ISSUE_CODES, issue.code) && Object.keys(issue).length === 3;
};

/** 2xx with the success envelope, or 4xx with the error envelope; anything else fails the property. */
function expectDocumentedAnswer(res: HttpResponse): void {
  expect(res.status, res.text).to.satisfy((status: number) => (status >= 200 && status < 300) || (status >= 400 && status < 500));
  if (res.status < 300) {
    expect(Object.keys(res.body)).to.deep.equal(['message', 'data']);
    expect(res.body.data.user).to.have.keys('id', 'name', 'lastname', 'email', 'emailverified');
    expect(res.body.data.accesstoken).to.be.a('string');
    return;
  }
  expect(Object.keys(res.body)).to.deep.equal(['message', 'code', 'errors']);
  expect(res.body.message).to.be.a('string');
  expect(res.body.errors).to.be.an('array').and.satisfy((errors: unknown[]) => errors.every(isFieldIssue));
}

describe('HTTP: property: whatever the body, never a 5xx', () => {
  let service: TestService;
  before(async () => (service = await startTestService({ RATE_LIMIT_MAX: '100000' })));
  after(async () => service.dispose());

  it('any JSON value as the body of either endpoint', async function () {
    this.timeout(60_000);
    await fc.assert(
      fc.asyncProperty(endpoint, anyJson, async (path, body) => {
        expectDocumentedAnswer(await http(service.url, path, { body: JSON.stringify(body), headers: json }));
      }),
      { numRuns: 150 },
    );
  });

  it('objects with the expected keys and arbitrary values', async function () {
    this.timeout(60_000);
    await fc.assert(
      fc.asyncProperty(endpoint, withExpectedKeys, async (path, body) => {
        expectDocumentedAnswer(await http(service.url, path, { body: JSON.stringify(body), headers: json }));
      }),
      { numRuns: 150 },
    );
  });

  it('arbitrary bytes sent as JSON', async function () {
    this.timeout(60_000);
    await fc.assert(
      fc.asyncProperty(endpoint, fc.uint8Array({ maxLength: 80 }), async (path, bytes) => {
        expectDocumentedAnswer(await http(service.url, path, { body: Buffer.from(bytes), headers: json }));
      }),
      { numRuns: 100 },
    );
  });
});
