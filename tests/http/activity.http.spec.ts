import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const get = (url: string, path: string, token?: string) =>
  http(url, path, { method: 'GET', headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

describe('HTTP: GET /auth/me/activity', () => {
  let service: TestService;
  let token: string;
  before(async () => {
    // Each request here names its own user agent: the new-device notices (tests/http/new-device.http.spec.ts) are off.
    service = await startTestService({ NEW_DEVICE_NOTICE: 'false' });
    const email = 'ada@example.com';
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }), { 'user-agent': 'signup-browser/1.0' });
    token = up.body.data.accesstoken;
    for (const n of [1, 2, 3]) {
      const res = await postJson(service.url, '/auth/sign-in', { email, password: `guess number ${n}` }, { 'user-agent': `password-sprayer/${n}` });
      expect(res.status).to.equal(401);
    }
    await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'grace@example.com' }), { 'user-agent': 'someone-else' });
    await postJson(service.url, '/auth/sign-in', { email: 'grace@example.com', password: 'wrong password' }, { 'user-agent': 'someone-else' });
    const ok = await postJson(service.url, '/auth/sign-in', { email, password: 'analytical engine 1843' }, { 'user-agent': 'Mozilla/5.0 (X11; Linux) test' });
    expect(ok.status).to.equal(201);
  });
  after(async () => service.dispose());

  it('after three failed sign-ins and one success shows them newest first, with address and user agent, and only this account', async () => {
    const res = await get(service.url, '/auth/me/activity', token);
    expect(res.status).to.equal(200);
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.body.message).to.equal('Account activity retrieved successfully');
    expect(res.body.data.nextcursor).to.equal(null);
    const events: Array<Record<string, unknown>> = res.body.data.events;
    expect(events.map((event) => [event['type'], event['useragent'], event['reason']])).to.deep.equal([
      ['session_started', 'Mozilla/5.0 (X11; Linux) test', undefined],
      ['user_signed_in', 'Mozilla/5.0 (X11; Linux) test', undefined],
      ['sign_in_failed', 'password-sprayer/3', 'wrong_password'],
      ['sign_in_failed', 'password-sprayer/2', 'wrong_password'],
      ['sign_in_failed', 'password-sprayer/1', 'wrong_password'],
      ['session_started', 'signup-browser/1.0', undefined],
      ['email_verification_requested', 'signup-browser/1.0', undefined],
      ['user_registered', 'signup-browser/1.0', undefined],
    ]);
    for (const event of events) {
      expect(event['clientip']).to.equal('127.0.0.1');
      expect(new Date(event['occurredat'] as string).toISOString()).to.equal(event['occurredat']);
    }
    const times = events.map((event) => Date.parse(event['occurredat'] as string));
    expect([...times].sort((a, b) => b - a)).to.deep.equal(times);
    expect(res.text).not.to.match(/argon2|analytical engine|guess number|eyJ|someone-else/);
  });

  it('pages with limit and cursor, newest first, to the end', async () => {
    const all = (await get(service.url, '/auth/me/activity', token)).body.data.events;
    const first = await get(service.url, '/auth/me/activity?limit=2', token);
    expect(first.body.data.events).to.deep.equal(all.slice(0, 2));
    const second = await get(service.url, `/auth/me/activity?limit=2&cursor=${encodeURIComponent(first.body.data.nextcursor)}`, token);
    expect(second.body.data.events).to.deep.equal(all.slice(2, 4));
    const third = await get(service.url, `/auth/me/activity?limit=2&cursor=${encodeURIComponent(second.body.data.nextcursor)}`, token);
    expect(third.body.data.events).to.deep.equal(all.slice(4, 6));
    const last = await get(service.url, `/auth/me/activity?limit=2&cursor=${encodeURIComponent(third.body.data.nextcursor)}`, token);
    expect(all).to.have.length(8);
    expect(last.body.data).to.deep.equal({ events: all.slice(6), nextcursor: null });
  });

  for (const [query, field, message] of [
    ['limit=0', 'limit', 'must be an integer from 1 to 100'],
    ['limit=101', 'limit', 'must be an integer from 1 to 100'],
    ['limit=abc', 'limit', 'must be an integer from 1 to 100'],
    ['limit=1.5', 'limit', 'must be an integer from 1 to 100'],
    ['limit=-1', 'limit', 'must be an integer from 1 to 100'],
    ['limit=1&limit=2', 'limit', 'must be an integer from 1 to 100'],
    ['cursor=bm90LWEtY3Vyc29y', 'cursor', 'is not a valid cursor'],
    ['cursor=', 'cursor', 'is not a valid cursor'],
    [`cursor=${'A'.repeat(600)}`, 'cursor', 'is not a valid cursor'],
  ] as const) {
    it(`400 Invalid input data for ${query.slice(0, 30)}`, async () => {
      const res = await get(service.url, `/auth/me/activity?${query}`, token);
      expect(res.status).to.equal(400);
      // A cursor of the right shape that the store cannot read is its own refusal; any other bad value is invalid input.
      const code = query === 'cursor=bm90LWEtY3Vyc29y' ? 'INVALID_CURSOR' : 'INVALID_INPUT';
      expect(res.body).to.deep.equal({ message: 'Invalid input data', code, errors: [{ field, code: field === 'cursor' ? 'INVALID_FORMAT' : 'OUT_OF_RANGE', message }] });
    });
  }

  it('authenticates before it validates: a bad limit without a token is 401', async () => {
    expect((await get(service.url, '/auth/me/activity?limit=0')).status).to.equal(401);
  });
});
