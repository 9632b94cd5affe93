import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { ManualClock } from '../support/fakes.js';
import { type HttpResponse, http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { aTestKey, claimsFor, hs256WithPublicKey, nowSeconds, signToken, unsignedToken, withClaimChanged } from '../support/tokens.js';

const MISSING = { message: 'Invalid or missing access token', code: 'MISSING_TOKEN', errors: [{ field: null, message: 'an access token is required (Authorization: Bearer <token>)' }] };
const INVALID = { message: 'Invalid or missing access token', code: 'INVALID_TOKEN', errors: [{ field: null, message: 'the access token is invalid or expired' }] };
const CHALLENGE = 'Bearer realm="account-service"';
const INVALID_CHALLENGE = 'Bearer realm="account-service", error="invalid_token"';

const get = (url: string, path: string, headers: Record<string, string> = {}) => http(url, path, { method: 'GET', headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const expectRefused = (res: HttpResponse, presented: boolean) => {
  expect(res.status).to.equal(401);
  expect(res.body).to.deep.equal(presented ? INVALID : MISSING);
  expect(res.headers['www-authenticate']).to.equal(presented ? INVALID_CHALLENGE : CHALLENGE);
};

describe('HTTP: GET /auth/me and the bearer token', () => {
  const key = aTestKey();
  const stranger = aTestKey();
  let service: TestService;
  let ada: { id: string; name: string; lastname: string; email: string };
  let grace: { id: string };
  let graceSession: string;
  let adaToken: string;
  before(async () => {
    service = await startTestService({ JWT_PRIVATE_KEY: key.privatePem });
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'ada@example.com' }));
    ada = up.body.data.user;
    adaToken = up.body.data.accesstoken;
    const graceUp = await postJson(service.url, '/auth/sign-up', aSignUpBody({ name: 'Grace', email: 'grace@example.com' }));
    grace = graceUp.body.data.user;
    graceSession = JSON.parse(Buffer.from(String(graceUp.body.data.accesstoken).split('.')[1] ?? '', 'base64url').toString()).sid;
  });
  after(async () => service.dispose());

  it('opens with the token from sign-up: 200, the same user resource (and no second factor), not cacheable', async () => {
    const res = await get(service.url, '/auth/me', bearer(adaToken));
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ message: 'User retrieved successfully', data: { user: ada, mfa: { enrolled: false, recoverycodesleft: 0 } } });
    expect(res.headers['cache-control']).to.equal('no-store');
  });

  it('opens with the token from sign-in, whatever the case of the scheme', async () => {
    const signIn = await postJson(service.url, '/auth/sign-in', { email: 'ada@example.com', password: 'analytical engine 1843' });
    const res = await get(service.url, '/auth/me', { authorization: `bearer ${signIn.body.data.accesstoken as string}` });
    expect(res.status).to.equal(200);
    expect(res.body.data.user).to.deep.equal(ada);
  });

  const notPresented: ReadonlyArray<readonly [string, Record<string, string>]> = [
    ['no Authorization header', {}],
    ['another scheme', { authorization: 'Basic YWRhOnBhc3N3b3Jk' }],
  ];
  const forged: ReadonlyArray<readonly [string, () => string]> = [
    ['a bare "Bearer"', () => 'Bearer'],
    ['two tokens', () => `Bearer ${adaToken} ${adaToken}`],
    ['a garbage token', () => 'Bearer garbage'],
    ['a token signed with another key', () => `Bearer ${signToken(stranger, claimsFor(ada.id))}`],
    ['another key under the real kid', () => `Bearer ${signToken(stranger, claimsFor(ada.id), key.kid)}`],
    ['one claim changed (sub of another user)', () => `Bearer ${withClaimChanged(adaToken, 'sub', grace.id)}`],
    ['one claim changed (exp pushed out)', () => `Bearer ${withClaimChanged(adaToken, 'exp', nowSeconds() + 86_400)}`],
    ['alg none', () => `Bearer ${unsignedToken(claimsFor(ada.id), key.kid)}`],
    ['HS256 with the public key as secret', () => `Bearer ${hs256WithPublicKey(claimsFor(ada.id), key)}`],
    ['an expired token', () => `Bearer ${signToken(key, claimsFor(ada.id, { iat: nowSeconds() - 1000, exp: nowSeconds() - 100 }))}`],
    ['a not-yet-valid token (nbf)', () => `Bearer ${signToken(key, claimsFor(ada.id, { nbf: nowSeconds() + 600 }))}`],
    ['a wrong issuer', () => `Bearer ${signToken(key, claimsFor(ada.id, { iss: 'evil-issuer' }))}`],
    ['a wrong audience', () => `Bearer ${signToken(key, claimsFor(ada.id, { aud: 'another-service' }))}`],
    ['a user that does not exist', () => `Bearer ${signToken(key, claimsFor('00000000-0000-4000-8000-000000000000'))}`],
    ['a token that names no session', () => `Bearer ${signToken(key, claimsFor(grace.id))}`],
    ['a session that does not exist', () => `Bearer ${signToken(key, claimsFor(grace.id, { sid: '00000000-0000-4000-8000-000000000000' }))}`],
    ["another account's session", () => `Bearer ${signToken(key, claimsFor(ada.id, { sid: graceSession }))}`],
  ];
  for (const path of ['/auth/me', '/auth/me/activity']) {
    for (const [label, headers] of notPresented) {
      it(`${path}: 401 with a plain challenge for ${label}`, async () => expectRefused(await get(service.url, path, headers), false));
    }
    for (const [label, header] of forged) {
      it(`${path}: 401 invalid_token for ${label}`, async () => expectRefused(await get(service.url, path, { authorization: header() }), true));
    }
  }

  it('a real token for a user that exists still opens it (the forgeries above differ only in what they say)', async () => {
    const res = await get(service.url, '/auth/me', bearer(signToken(key, claimsFor(grace.id, { sid: graceSession }))));
    expect(res.status).to.equal(200);
    expect(res.body.data.user.id).to.equal(grace.id);
  });
});

describe('HTTP: token lifetime on a clock the test controls', () => {
  const clock = new ManualClock(new Date());
  let service: TestService;
  before(async () => (service = await startTestService({ STORAGE: 'memory', JWT_TTL_SECONDS: '60' }, { clock })));
  after(async () => service.dispose());

  it('accepts the token until its exp and refuses it from then on', async () => {
    const token: string = (await postJson(service.url, '/auth/sign-up', aSignUpBody())).body.data.accesstoken;
    clock.advance(59_000);
    expect((await get(service.url, '/auth/me', bearer(token))).status).to.equal(200);
    clock.advance(1_000);
    expectRefused(await get(service.url, '/auth/me', bearer(token)), true);
  });
});

describe('HTTP: PATCH /auth/me', () => {
  let service: TestService;
  let token: string;
  before(async () => {
    service = await startTestService();
    token = (await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'ada@example.com' }))).body.data.accesstoken;
  });
  after(async () => service.dispose());

  const patch = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json', ...bearer(token) }) =>
    http(service.url, '/auth/me', { method: 'PATCH', body, headers });

  it('changes the name and last name: 200 with the user, and GET /auth/me shows them', async () => {
    const res = await patch({ name: 'Augusta Ada', lastname: 'King' });
    expect(res.status).to.equal(200);
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.body.message).to.equal('User updated successfully');
    expect(res.body.data.user).to.deep.include({ name: 'Augusta Ada', lastname: 'King', email: 'ada@example.com' });
    expect((await get(service.url, '/auth/me', bearer(token))).body.data.user).to.deep.equal(res.body.data.user);
  });

  it('answers 400 listing every field, 401 without a token, 415 without JSON', async () => {
    const bad = await patch({ name: '', lastname: 42 });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((issue: { field: string }) => issue.field)).to.deep.equal(['name', 'lastname']);
    expectRefused(await patch({ name: 'A', lastname: 'B' }, { 'content-type': 'application/json' }), false);
    expect((await patch('name=A', { 'content-type': 'text/plain', ...bearer(token) })).status).to.equal(415);
  });
});

