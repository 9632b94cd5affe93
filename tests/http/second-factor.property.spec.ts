import { expect } from 'chai';
import fc from 'fast-check';
import { verifyByMail } from '../support/verify-by-mail.js';
import { aSignUpBody } from '../support/builders.js';
import { type HttpResponse, http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const PASSWORD = 'analytical engine 1843';
const json = { 'content-type': 'application/json' };

/** Values a hostile client sends where a code, a token, a name or a WebAuthn answer is expected. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('123456', '000000', 'mfa1.', 'abcde-fghij', '', ' ', '\u0000'),
  fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }),
  fc.record({
    id: fc.string({ maxLength: 20 }),
    rawId: fc.string({ maxLength: 20 }),
    type: fc.constantFrom('public-key', 'x'),
    response: fc.record({
      clientDataJSON: fc.oneof(fc.string({ maxLength: 40 }), fc.constant(Buffer.from('{"challenge":"abc","type":"webauthn.get"}').toString('base64url'))),
      attestationObject: fc.string({ maxLength: 40 }),
      authenticatorData: fc.string({ maxLength: 40 }),
      signature: fc.string({ maxLength: 40 }),
    }, { requiredKeys: [] }),
  }, { requiredKeys: [] }),
);
const body = fc.record({ mfatoken: hostile, code: hostile, recoverycode: hostile, response: hostile, name: hostile, currentpassword: hostile }, { requiredKeys: [] });

const isFieldIssue = (entry: unknown): boolean => {
  const issue = entry as { field?: unknown; message?: unknown };
  return (typeof issue.field === 'string' || issue.field === null) && typeof issue.message === 'string';
};

/** A 2xx, or a 4xx in the error envelope: never a 5xx. */
function expectDocumentedAnswer(res: HttpResponse, where: string): void {
  expect(res.status, `${where}: ${res.text}`).to.satisfy((status: number) => (status >= 200 && status < 300) || (status >= 400 && status < 500));
  if (res.status >= 400) {
    expect(Object.keys(res.body), where).to.deep.equal(['message', 'code', 'errors']);
    expect(res.body.errors, where).to.be.an('array').and.satisfy((errors: unknown[]) => errors.every(isFieldIssue));
  }
}

describe('HTTP: property: whatever the body, the second-factor and passkey routes never answer a 5xx', () => {
  let service: TestService;
  let token = '';
  before(async () => {
    service = await startTestService({ RATE_LIMIT_MAX: '100000', THROTTLE_MAX_FAILURES: '100' });
    token = (await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'fuzz@example.com', password: PASSWORD }))).body.data.accesstoken;
    await verifyByMail(service, 'fuzz@example.com');
  });
  after(async () => service.dispose());

  const routes: readonly { method: string; path: string; bearer: boolean }[] = [
    { method: 'POST', path: '/auth/sign-in/mfa', bearer: false },
    { method: 'POST', path: '/auth/sign-in/passkey', bearer: false },
    { method: 'POST', path: '/auth/mfa/totp/confirm', bearer: true },
    { method: 'POST', path: '/auth/mfa/verify', bearer: true },
    { method: 'DELETE', path: '/auth/mfa/totp', bearer: true },
    { method: 'POST', path: '/auth/passkeys', bearer: true },
    { method: 'PATCH', path: '/auth/passkeys/some-id', bearer: true },
  ];

  it('any fields, of any type, on every route that reads a code, a token, a name or a WebAuthn answer', async function () {
    this.timeout(60_000);
    expect((await postJson(service.url, '/auth/mfa/totp', { currentpassword: PASSWORD }, { authorization: `Bearer ${token}` })).status).to.equal(200);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), body, async (route, sent) => {
        const headers = { ...json, ...(route.bearer ? { authorization: `Bearer ${token}` } : {}) };
        expectDocumentedAnswer(await http(service.url, route.path, { method: route.method, body: JSON.stringify(sent), headers }), `${route.method} ${route.path}`);
      }),
      { numRuns: 200 },
    );
  });
});
