import { expect } from 'chai';
import fc from 'fast-check';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const segment = fc.oneof(
  fc.string(),
  fc.json().map((json) => Buffer.from(json).toString('base64url')),
  fc.constantFrom('eyJhbGciOiJub25lIn0', 'eyJhbGciOiJFUzI1NiIsImtpZCI6MX0', ''),
);

describe('HTTP property: odd tokens and query strings never yield a 5xx', () => {
  let service: TestService;
  let token: string;
  before(async () => {
    service = await startTestService({ STORAGE: 'memory', RATE_LIMIT_MAX: '100000' });
    token = (await postJson(service.url, '/auth/sign-up', aSignUpBody())).body.data.accesstoken;
  });
  after(async () => service.dispose());

  it('any Authorization value other than a valid token answers 401 with a challenge', async () => {
    const header = fc.oneof(
      fc.string(),
      fc.tuple(segment, segment, segment).map((parts) => `Bearer ${parts.join('.')}`),
      fc.string().map((text) => `Bearer ${text}`),
    );
    await fc.assert(
      fc.asyncProperty(header, async (authorization) => {
        const res = await http(service.url, '/auth/me', { method: 'GET', headers: { authorization } });
        expect(res.status).to.equal(401);
        expect(res.headers['www-authenticate']).to.match(/^Bearer realm="account-service"/);
      }),
      { numRuns: 150 },
    );
  });

  it('any limit and cursor answer 200 or 400, never anything else', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(fc.string()), fc.option(fc.string()), async (limit, cursor) => {
        const query = new URLSearchParams();
        if (limit !== null) query.set('limit', limit);
        if (cursor !== null) query.set('cursor', cursor);
        const res = await http(service.url, `/auth/me/activity?${query.toString()}`, { method: 'GET', headers: { authorization: `Bearer ${token}` } });
        expect(res.status).to.be.oneOf([200, 400]);
      }),
      { numRuns: 150 },
    );
  });
});
