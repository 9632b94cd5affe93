import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { apiKeyFor } from '../support/api-keys.js';
import { http, postJson } from '../support/http-client.js';
import { type OidcTestProvider, startOidcTestProvider } from '../support/oidc-test-provider.js';
import { type TestService, startTestService } from '../support/test-service.js';

const APP = 'https://app.example/signed-in';
const API = 'http://accounts.test';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('HTTP: REQUIRE_VERIFIED_EMAIL=true holds for every consumer of a token and every way to get one (issue 61, item 7)', function () {
  this.timeout(60_000);
  let service: TestService;
  let corp: OidcTestProvider;
  before(async () => {
    corp = await startOidcTestProvider({ redirectUris: [`${API}/auth/oauth/corp/callback`] });
    service = await startTestService({
      REQUIRE_VERIFIED_EMAIL: 'true', RATE_LIMIT_MAX: '10000', PUBLIC_API_URL: API, OAUTH_PROVIDERS: 'corp', OAUTH_REDIRECT_URLS: APP,
      OAUTH_CORP_ISSUER: corp.issuer, OAUTH_CORP_CLIENT_ID: corp.clientId, OAUTH_CORP_CLIENT_SECRET: corp.clientSecret,
    });
  });
  after(async () => {
    await service?.dispose();
    await corp?.close();
  });

  it("a squatter's token: 403 at /auth/me and active: false at introspection, the same check", async () => {
    const introspector = await apiKeyFor(service.dataDir, 'introspect');
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: `squatter-${randomBytes(4).toString('hex')}@example.com` }));
    const token: string = up.body.data.accesstoken;
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(token) })).status).to.equal(403);
    const answer = await http(service.url, '/oauth/introspect', { body: JSON.stringify({ token }), headers: { 'content-type': 'application/json', ...bearer(introspector.key) } });
    expect([answer.status, answer.body]).to.deep.equal([200, { active: false }]);
  });

  it('a social exchange for an account whose address nobody proved: 403 EMAIL_NOT_VERIFIED, as a password sign-in, and no tokens', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const started = await http(service.url, `/auth/oauth/corp/authorize?${new URLSearchParams({ redirect_to: APP, code_challenge: challenge, code_challenge_method: 'S256' }).toString()}`, { method: 'GET' });
    corp.setAccount('unproven-sub', { email: `unproven-${randomBytes(4).toString('hex')}@example.com`, email_verified: false });
    const back = await corp.signIn(String(started.headers['location']), 'unproven-sub');
    const landed = await http(service.url, `/auth/oauth/corp/callback${back.search}`, { method: 'GET' });
    const code = new URL(String(landed.headers['location'])).searchParams.get('code');
    const exchanged = await postJson(service.url, '/auth/oauth/token', { code, code_verifier: verifier });
    expect([exchanged.status, exchanged.body.message, exchanged.body.data]).to.deep.equal([403, 'Email address not verified', undefined]);
  });
});
