import { readFileSync } from 'node:fs';
import { filesUnder } from '../support/files.js';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { ManualClock } from '../support/fakes.js';
import { type HttpResponse, http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const IDLE = 600;
const MAX = 1800;
const GRACE = 10;
const CAP = 5;
const INVALID_REFRESH = { message: 'Invalid refresh token', code: 'INVALID_REFRESH_TOKEN', errors: [{ field: 'refreshtoken', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or revoked' }] };
const PASSWORD = 'analytical engine 1843';

interface Tokens {
  readonly access: string;
  readonly refresh: string;
}

const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
const tokensOf = (res: HttpResponse): Tokens => ({ access: res.body.data.accesstoken, refresh: res.body.data.refreshtoken });
const claimsOf = (access: string) => JSON.parse(Buffer.from(access.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;


describe('HTTP: sessions (refresh, sign-out, devices, password change) on a clock the test controls', () => {
  const clock = new ManualClock(new Date());
  let service: TestService;
  let n = 0;

  before(async () => {
    service = await startTestService(
      {
        SESSION_IDLE_TIMEOUT_SECONDS: String(IDLE),
        SESSION_MAX_LIFETIME_SECONDS: String(MAX),
        REFRESH_REUSE_GRACE_SECONDS: String(GRACE),
        SESSIONS_MAX_PER_ACCOUNT: String(CAP),
        RATE_LIMIT_MAX: '100000',
        // The feed of each sign-in is checked whole: the new-device notices are tested in new-device.http.spec.ts.
        NEW_DEVICE_NOTICE: 'false',
      },
      { clock },
    );
  });
  after(async () => service.dispose());

  const signUp = async (agent = 'test-agent'): Promise<Tokens & { email: string }> => {
    const email = `session-${++n}@example.com`;
    const res = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }), { 'user-agent': agent });
    expect(res.status).to.equal(201);
    return { ...tokensOf(res), email };
  };
  const signIn = async (email: string, agent = 'test-agent'): Promise<Tokens> => {
    const res = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD }, { 'user-agent': agent });
    expect(res.status).to.equal(201);
    return tokensOf(res);
  };
  const refresh = (token: unknown) => postJson(service.url, '/auth/refresh', { refreshtoken: token });
  const me = (access: string) => http(service.url, '/auth/me', { method: 'GET', headers: bearer(access) });
  const signOut = (access: string, scope?: string) =>
    scope === undefined
      ? http(service.url, '/auth/sign-out', { headers: bearer(access) })
      : postJson(service.url, '/auth/sign-out', { scope }, bearer(access));
  const sessionsOf = (access: string) => http(service.url, '/auth/sessions', { method: 'GET', headers: bearer(access) });
  const activityTypes = async (access: string) =>
    (await http(service.url, '/auth/me/activity', { method: 'GET', headers: bearer(access) })).body.data.events.map((e: { type: string }) => e.type);

  it('sign-up and sign-in answer a refresh token and expiresin, never cacheable; the access token names its session', async () => {
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: `session-${++n}@example.com` }));
    expect(up.body.data.expiresin).to.equal(900);
    expect(up.body.data.refreshtoken).to.match(/^rt1\./);
    expect(up.headers['cache-control']).to.equal('no-store');
    const claims = claimsOf(up.body.data.accesstoken);
    expect(claims['sid']).to.be.a('string');
    expect(claims['amr']).to.deep.equal(['pwd']);
    expect(claims['auth_time']).to.equal(claims['iat']);
  });

  it('refresh rotates: 200 with new tokens in the envelope, no-store; the new refresh token continues the session', async () => {
    const { refresh: first, access } = await signUp();
    const res = await refresh(first);
    expect(res.status).to.equal(200);
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.body.message).to.equal('Token refreshed successfully');
    expect(Object.keys(res.body.data)).to.deep.equal(['user', 'accesstoken', 'refreshtoken', 'expiresin']);
    expect(claimsOf(res.body.data.accesstoken)).to.deep.include({ amr: ['pwd'], auth_time: claimsOf(access)['auth_time'] });
    expect(res.body.data.refreshtoken).to.not.equal(first);
    expect((await me(res.body.data.accesstoken)).status).to.equal(200);
    expect((await refresh(res.body.data.refreshtoken)).status).to.equal(200);
  });

  it('a missing refreshtoken is a 400; an unknown or forged one is a 401 with one body for all', async () => {
    expect((await postJson(service.url, '/auth/refresh', {})).status).to.equal(400);
    expect((await refresh('')).body.errors).to.deep.equal([{ field: 'refreshtoken', code: 'REQUIRED', message: 'is required' }]);
    const { refresh: real } = await signUp();
    const forged = `${real.slice(0, -4)}AAAA`;
    const unknown = real.replace(/^rt1\.[0-9a-f-]{36}/, 'rt1.00000000-0000-4000-8000-000000000000');
    for (const token of ['garbage', forged, unknown, 42]) {
      const res = await refresh(token);
      expect(res.status, String(token)).to.equal(typeof token === 'number' ? 400 : 401);
      if (res.status === 401) expect(res.body).to.deep.equal(INVALID_REFRESH);
    }
  });

  it('10 simultaneous refreshes of one token give 10 answers with one and the same successor, and the session lives on', async () => {
    const { refresh: token } = await signUp();
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(token)));
    expect(answers.map((res) => res.status)).to.deep.equal(Array(10).fill(200));
    const successors = new Set(answers.map((res) => res.body.data.refreshtoken));
    expect(successors.size).to.equal(1);
    const [successor] = [...successors];
    const next = await refresh(successor);
    expect(next.status).to.equal(200);
    expect((await me(next.body.data.accesstoken)).status).to.equal(200);
  });

  it('the previous token within the grace window answers the same successor; after it, reuse ends the whole session', async () => {
    const { refresh: first, email } = await signUp();
    const rotated = await refresh(first);
    clock.advance((GRACE - 1) * 1000);
    const again = await refresh(first);
    expect(again.status).to.equal(200);
    expect(again.body.data.refreshtoken).to.equal(rotated.body.data.refreshtoken);

    clock.advance(2000);
    const reused = await refresh(first);
    expect(reused.status).to.equal(401);
    expect(reused.body).to.deep.equal(INVALID_REFRESH);
    expect((await refresh(rotated.body.data.refreshtoken)).status, 'the descendant token').to.equal(401);
    expect((await me(rotated.body.data.accesstoken)).status, 'an access token of the session').to.equal(401);
    expect((await me(again.body.data.accesstoken)).status).to.equal(401);

    const other = await signIn(email);
    const types = await activityTypes(other.access);
    expect(types.slice(0, 2), 'the new sign-in').to.deep.equal(['session_started', 'user_signed_in']);
    expect(types.slice(2, 4)).to.deep.equal(['session_revoked', 'refresh_token_reused']);
  });

  it('ends a session idle for SESSION_IDLE_TIMEOUT_SECONDS: refresh and bearer refused, though the access token has not expired', async () => {
    const { access, refresh: token } = await signUp();
    clock.advance((IDLE - 1) * 1000);
    expect((await me(access)).status).to.equal(200);
    clock.advance(1000);
    expect((await me(access)).status).to.equal(401);
    expect((await refresh(token)).status).to.equal(401);
  });

  it('ends a session SESSION_MAX_LIFETIME_SECONDS after sign-in however often it is refreshed', async () => {
    let { refresh: token } = await signUp();
    let access = '';
    for (let elapsed = 0; elapsed + IDLE / 2 < MAX; elapsed += IDLE / 2) {
      clock.advance((IDLE / 2) * 1000);
      const res = await refresh(token);
      expect(res.status, `after ${elapsed + IDLE / 2} s`).to.equal(200);
      ({ refreshtoken: token, accesstoken: access } = res.body.data);
    }
    clock.advance((IDLE / 2) * 1000);
    expect((await me(access)).status).to.equal(401);
    expect((await refresh(token)).status).to.equal(401);
  });

  it('sign-out local (no body, no Content-Type): 204, that session refused at once, the others untouched', async () => {
    const phone = await signUp('phone');
    const laptop = await signIn(phone.email, 'laptop');
    const res = await signOut(phone.access);
    expect(res.status).to.equal(204);
    expect(res.text).to.equal('');
    expect((await me(phone.access)).status).to.equal(401);
    expect((await refresh(phone.refresh)).status).to.equal(401);
    expect((await me(laptop.access)).status).to.equal(200);
    expect((await signOut(laptop.access, 'everywhere')).status).to.equal(400);
  });

  it('sign-out with {"scope": null} is a 400 on scope and ends nothing; {} is local', async () => {
    const { access } = await signUp();
    const res = await postJson(service.url, '/auth/sign-out', { scope: null }, bearer(access));
    expect(res.status).to.equal(400);
    expect(res.body.errors).to.deep.equal([{ field: 'scope', code: 'NOT_ONE_OF', message: 'must be one of local, others, global' }]);
    expect((await me(access)).status).to.equal(200);
    expect((await postJson(service.url, '/auth/sign-out', {}, bearer(access))).status).to.equal(204);
    expect((await me(access)).status).to.equal(401);
  });

  it('sign-out others ends every other session and keeps this one; global ends them all', async () => {
    const a = await signUp();
    const b = await signIn(a.email);
    const c = await signIn(a.email);
    expect((await signOut(b.access, 'others')).status).to.equal(204);
    expect([(await me(a.access)).status, (await me(b.access)).status, (await me(c.access)).status]).to.deep.equal([401, 200, 401]);
    const d = await signIn(a.email);
    expect((await signOut(d.access, 'global')).status).to.equal(204);
    expect([(await me(b.access)).status, (await me(d.access)).status, (await refresh(b.refresh)).status]).to.deep.equal([401, 401, 401]);
  });

  it('lists the live sessions newest first, exactly one current, with no token; revokes a device by id', async () => {
    const first = await signUp('first-device');
    clock.advance(1000);
    const second = await signIn(first.email, 'second-device');
    const list = await sessionsOf(second.access);
    expect(list.status).to.equal(200);
    expect(list.headers['cache-control']).to.equal('no-store');
    const sessions = list.body.data.sessions;
    expect(sessions.map((s: { useragent: string; current: boolean }) => [s.useragent, s.current])).to.deep.equal([
      ['second-device', true],
      ['first-device', false],
    ]);
    expect(Object.keys(sessions[0])).to.deep.equal(['id', 'createdat', 'lastusedat', 'expiresat', 'clientip', 'useragent', 'current']);
    expect(list.text).to.not.include(first.refresh).and.not.include(first.access);

    const revoke = (access: string, id: string) => http(service.url, `/auth/sessions/${id}`, { method: 'DELETE', headers: bearer(access) });
    expect((await revoke(second.access, sessions[1].id)).status).to.equal(204);
    expect((await me(first.access)).status).to.equal(401);
    expect((await refresh(first.refresh)).status).to.equal(401);
    expect((await revoke(second.access, sessions[1].id)).status, 'already ended').to.equal(404);

    const stranger = await signUp();
    const notMine = await revoke(stranger.access, sessions[0].id);
    const missing = await revoke(stranger.access, '00000000-0000-4000-8000-000000000000');
    expect(notMine.status).to.equal(404);
    expect(notMine.body).to.deep.equal(missing.body);
    expect(notMine.body).to.deep.equal({ message: 'Session not found', code: 'SESSION_NOT_FOUND', errors: [{ field: null, message: 'no such session' }] });
    expect((await me(second.access)).status).to.equal(200);
  });

  it('pages GET /auth/sessions with limit and cursor, newest first, nextcursor null on the last page; refuses a bad limit or cursor', async () => {
    const first = await signUp('device-0');
    const all = [first];
    for (let i = 1; i < 4; i++) {
      clock.advance(1000);
      all.push({ ...(await signIn(first.email, `device-${i}`)), email: first.email });
    }
    const page = (query: string) => http(service.url, `/auth/sessions${query}`, { method: 'GET', headers: bearer(first.access) });
    const agents = (res: HttpResponse) => res.body.data.sessions.map((s: { useragent: string }) => s.useragent);

    const one = await page('?limit=3');
    expect(one.status).to.equal(200);
    expect(Object.keys(one.body.data)).to.deep.equal(['sessions', 'nextcursor']);
    expect(agents(one)).to.deep.equal(['device-3', 'device-2', 'device-1']);
    const two = await page(`?limit=3&cursor=${encodeURIComponent(one.body.data.nextcursor)}`);
    expect(agents(two)).to.deep.equal(['device-0']);
    expect(two.body.data.sessions[0].current).to.equal(true);
    expect(two.body.data.nextcursor).to.equal(null);
    expect((await page('')).body.data).to.deep.include({ nextcursor: null });

    for (const [query, field, message] of [
      ['?limit=0', 'limit', 'must be an integer from 1 to 100'],
      ['?limit=101', 'limit', 'must be an integer from 1 to 100'],
      ['?cursor=bm90LWEtY3Vyc29y', 'cursor', 'is not a valid cursor'],
    ]) {
      const res = await page(query ?? '');
      expect(res.status, query).to.equal(400);
      expect(res.body.errors, query).to.deep.equal([{ field, code: field === 'cursor' ? 'INVALID_FORMAT' : 'OUT_OF_RANGE', message }]);
    }
  });

  it('keeps at most SESSIONS_MAX_PER_ACCOUNT sessions: a sign-in beyond it ends the least recently used one (401), shown as evicted', async () => {
    const first = await signUp('first-device');
    clock.advance(1000);
    const second = await signIn(first.email, 'second-device');
    clock.advance(1000);
    const refreshedFirst = tokensOf(await refresh(first.refresh));
    const rest: Tokens[] = [];
    for (let i = 0; i < CAP - 1; i++) {
      clock.advance(1000);
      rest.push(await signIn(first.email, `device-${i}`));
    }
    expect((await me(second.access)).status, 'the least recently used').to.equal(401);
    expect((await refresh(second.refresh)).status).to.equal(401);
    for (const { access } of [refreshedFirst, ...rest]) expect((await me(access)).status).to.equal(200);
    const listed = (await sessionsOf(refreshedFirst.access)).body.data.sessions;
    expect(listed).to.have.length(CAP);
    expect(listed.map((s: { useragent: string }) => s.useragent)).to.not.include('second-device');
    const feed = (await http(service.url, '/auth/me/activity', { method: 'GET', headers: bearer(refreshedFirst.access) })).body.data.events;
    expect(feed[0]).to.deep.include({ type: 'session_revoked', reason: 'evicted' });
    expect(feed.filter((e: { reason?: string }) => e.reason === 'evicted')).to.have.length(1);
  });

  it('changes the password: every other session ends, this one stays, and the new password signs in', async () => {
    const here = await signUp();
    const elsewhere = await signIn(here.email);
    const change = (body: unknown) => postJson(service.url, '/auth/password', body, bearer(here.access));

    const weak = await change({ currentpassword: PASSWORD, newpassword: 'password123' });
    expect(weak.status).to.equal(400);
    expect(weak.body.errors).to.deep.equal([{ field: 'newpassword', code: 'TOO_COMMON', message: 'is too common' }]);
    const res = await change({ currentpassword: PASSWORD, newpassword: 'a brand new passphrase' });
    expect(res.status).to.equal(200);
    expect(res.body.message).to.equal('Password changed successfully');
    expect((await me(here.access)).status).to.equal(200);
    expect((await me(elsewhere.access)).status).to.equal(401);
    expect((await refresh(elsewhere.refresh)).status).to.equal(401);
    expect((await postJson(service.url, '/auth/sign-in', { email: here.email, password: PASSWORD })).status).to.equal(401);
    expect((await postJson(service.url, '/auth/sign-in', { email: here.email, password: 'a brand new passphrase' })).status).to.equal(201);
    expect(await activityTypes(here.access)).to.include.members(['password_changed', 'sessions_ended']);
  });

  it('a wrong current password is a 400 for currentpassword; after 5 the session ends (401), and sign-in is not throttled', async () => {
    const { access, email } = await signUp();
    const other = await signIn(email);
    const wrong = () => postJson(service.url, '/auth/password', { currentpassword: 'not it at all', newpassword: 'another new passphrase' }, bearer(access));
    const first = await wrong();
    expect(first.status).to.equal(400);
    expect(first.body.errors).to.deep.equal([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
    for (let i = 0; i < 4; i++) expect((await wrong()).status).to.equal(400);
    expect((await wrong()).status, 'the session ended: its token is refused').to.equal(401);
    expect((await me(access)).status).to.equal(401);
    expect((await me(other.access)).status, 'another session of the account').to.equal(200);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).status, "the owner's sign-in").to.equal(201);
    const feed = (await http(service.url, '/auth/me/activity', { method: 'GET', headers: bearer(other.access) })).body.data.events;
    expect(feed.filter((e: { reason?: string }) => e.reason === 'too_many_password_failures')).to.have.length(1);
  });

  it('after a sign-up, no file under DATA_DIR holds the refresh token or the access token', async () => {
    const { access, refresh: token } = await signUp();
    const refreshed = tokensOf(await refresh(token));
    for (const file of filesUnder(service.dataDir)) {
      const bytes = readFileSync(file);
      for (const secret of [access, token, refreshed.access, refreshed.refresh]) {
        expect(bytes.includes(Buffer.from(secret)), `${file} holds a token`).to.equal(false);
        expect(bytes.includes(Buffer.from(secret.split('.').at(-1) ?? '')), `${file} holds a token's signature or MAC`).to.equal(false);
      }
    }
  });

  it("strangers' wrong sign-ins never lock the owner out of a password change: after the throttle answers 429, the owner's right current password changes it", async () => {
    const owner = await signUp();
    const wrong = () => postJson(service.url, '/auth/sign-in', { email: owner.email, password: 'not the password 1' });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await wrong()).status);
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429]);
    const changed = await postJson(service.url, '/auth/password', { currentpassword: PASSWORD, newpassword: 'difference engine 1822' }, bearer(owner.access));
    expect(changed.status, changed.text).to.equal(200);
    expect((await me(owner.access)).status, "the owner's session stays").to.equal(200);
    expect((await postJson(service.url, '/auth/sign-in', { email: owner.email, password: 'difference engine 1822' })).status, 'the sign-in throttle still guards sign-in').to.equal(429);
  });
});
