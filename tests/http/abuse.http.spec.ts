import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService, tempDir } from '../support/test-service.js';

const TOO_MANY_ATTEMPTS = {
  message: 'Too many sign-in attempts',
  code: 'TOO_MANY_ATTEMPTS',
  errors: [{ field: null, message: 'too many failed sign-ins for this email; try again later' }],
};
const TOO_MANY_REQUESTS = { message: 'Too many requests', code: 'RATE_LIMITED', errors: [{ field: null, message: 'rate limit exceeded; try again later' }] };

describe('HTTP: abuse resistance', () => {
  describe('per-account throttling (THROTTLE_MAX_FAILURES=5 in THROTTLE_WINDOW_SECONDS=900)', () => {
    let service: TestService;
    before(async () => (service = await startTestService()));
    after(async () => service.dispose());

    const signIn = (email: string, password: string) => postJson(service.url, '/auth/sign-in', { email, password });

    it('answers 429 with Retry-After and the envelope after 5 failures, even for the right password', async () => {
      await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'throttled@example.com' }));
      for (let i = 0; i < 5; i++) expect((await signIn('throttled@example.com', 'wrong password')).status).to.equal(401);

      const res = await signIn('THROTTLED@example.com', 'analytical engine 1843');

      expect(res.status).to.equal(429);
      expect(res.body).to.deep.equal(TOO_MANY_ATTEMPTS);
      expect(Number(res.headers['retry-after'])).to.be.within(890, 900);
    });

    it('answers an e-mail with no account exactly the same way', async () => {
      for (let i = 0; i < 5; i++) expect((await signIn('nobody-here@example.com', 'wrong password')).status).to.equal(401);
      const res = await signIn('nobody-here@example.com', 'wrong password');
      expect(res.status).to.equal(429);
      expect(res.body).to.deep.equal(TOO_MANY_ATTEMPTS);
      expect(Number(res.headers['retry-after'])).to.be.within(890, 900);
    });

    it('a successful sign-in resets the count', async () => {
      await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'reset@example.com' }));
      for (let i = 0; i < 4; i++) await signIn('reset@example.com', 'wrong password');
      expect((await signIn('reset@example.com', 'analytical engine 1843')).status).to.equal(201);
      for (let i = 0; i < 4; i++) expect((await signIn('reset@example.com', 'wrong password')).status).to.equal(401);
      expect((await signIn('reset@example.com', 'analytical engine 1843')).status).to.equal(201);
    });
  });

  it('per-account throttling holds across two instances sharing one store', async () => {
    const dataDir = tempDir('shared-store');
    const first = await startTestService({ DATA_DIR: dataDir });
    const second = await startTestService({ DATA_DIR: dataDir });
    try {
      const attempt = (service: TestService) => postJson(service.url, '/auth/sign-in', { email: 'shared@example.com', password: 'wrong password' });
      const statuses = [];
      for (const service of [first, second, first, second, first, second]) statuses.push((await attempt(service)).status);
      expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429]);
    } finally {
      await first.close();
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('per-client rate limit on /auth/* (RATE_LIMIT_MAX=3)', () => {
    let service: TestService;
    afterEach(async () => service.dispose());

    it('answers the 4th request in the window with 429, Retry-After and the envelope, whatever the request', async () => {
      service = await startTestService({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '1 minute' });
      const answers = [
        await postJson(service.url, '/auth/sign-in', {}),
        await http(service.url, '/auth/sign-up', { body: 'x', headers: { 'content-type': 'text/plain' } }),
        await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'limited@example.com' })),
        await postJson(service.url, '/auth/sign-in', { email: 'limited@example.com', password: 'analytical engine 1843' }),
      ];
      expect(answers.map((res) => res.status)).to.deep.equal([400, 415, 201, 429]);
      const limited = answers[3];
      expect(limited?.body).to.deep.equal(TOO_MANY_REQUESTS);
      expect(Number(limited?.headers['retry-after'])).to.be.within(1, 60);
      expect(limited?.headers['x-content-type-options']).to.equal('nosniff');
    });

    it('ignores X-Forwarded-For by default, so a client cannot buy a fresh budget by inventing addresses', async () => {
      service = await startTestService({ RATE_LIMIT_MAX: '2' });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await postJson(service.url, '/auth/sign-in', {}, { 'x-forwarded-for': `198.51.100.${i}` })).status);
      expect(statuses).to.deep.equal([400, 400, 429]);
    });

    it('with TRUST_PROXY=true keys the limit on the X-Forwarded-For client address', async () => {
      service = await startTestService({ RATE_LIMIT_MAX: '2', TRUST_PROXY: 'true' });
      const from = (ip: string) => postJson(service.url, '/auth/sign-in', {}, { 'x-forwarded-for': ip });
      const statuses = [(await from('198.51.100.1')).status, (await from('198.51.100.1')).status, (await from('198.51.100.1')).status, (await from('198.51.100.2')).status];
      expect(statuses).to.deep.equal([400, 400, 429, 400]);
    });

    it('does not limit routes outside /auth/*', async () => {
      service = await startTestService({ RATE_LIMIT_MAX: '1' });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await http(service.url, '/elsewhere', { method: 'GET' })).status);
      expect(statuses).to.deep.equal([404, 404, 404]);
    });
  });

  describe('per-client limit of the routes that mail a link (PASSWORD_RESET_RATE_LIMIT_MAX, default 10 per 15 minutes)', () => {
    let service: TestService;
    before(async () => (service = await startTestService()));
    after(async () => service.dispose());

    for (const path of ['/auth/password-reset', '/auth/verify-email/resend']) {
      it(`POST ${path} for 15 addresses from one client: 10 answered 202, then 429 with Retry-After`, async () => {
        const answers = [];
        for (let i = 0; i < 15; i++) answers.push(await postJson(service.url, path, { email: `someone-${i}@example.com` }));
        expect(answers.map((res) => res.status)).to.deep.equal([...Array<number>(10).fill(202), ...Array<number>(5).fill(429)]);
        const limited = answers[10];
        expect(limited?.body).to.deep.equal(TOO_MANY_REQUESTS);
        expect(Number(limited?.headers['retry-after'])).to.be.within(1, 900);
      });
    }
  });

  describe('password policy and security headers', () => {
    let service: TestService;
    before(async () => (service = await startTestService()));
    after(async () => service.dispose());

    it('refuses a too common password with a 400 entry for password saying why', async () => {
      const res = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'common@example.com', password: 'Password123' }));
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Invalid input data', code: 'INVALID_INPUT', errors: [{ field: 'password', code: 'TOO_COMMON', message: 'is too common' }] });
    });

    it('refuses a password equal to the e-mail or its local part with a 400 entry for password', async () => {
      for (const password of ['Grace.Hopper@Example.com', 'GRACE.HOPPER']) {
        const res = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'grace.hopper@example.com', password }));
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal({ message: 'Invalid input data', code: 'INVALID_INPUT', errors: [{ field: 'password', code: 'SAME_AS_EMAIL', message: 'must not be the same as the email address' }] });
      }
    });

    it('sends helmet security headers on successes and errors alike', async () => {
      const answers = [
        await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'headers@example.com' })),
        await postJson(service.url, '/auth/sign-in', {}),
        await http(service.url, '/auth/sign-in', { body: '{}', headers: { 'content-type': 'text/plain' } }),
        await http(service.url, '/nowhere', { method: 'GET' }),
      ];
      expect(answers.map((res) => res.status)).to.deep.equal([201, 400, 415, 404]);
      for (const res of answers) {
        expect(res.headers['x-content-type-options']).to.equal('nosniff');
        expect(res.headers['x-frame-options']).to.equal('SAMEORIGIN');
        expect(res.headers['strict-transport-security'], 'no HSTS over plain HTTP').to.equal(undefined);
        expect(res.headers['content-security-policy']).to.include("default-src 'self'");
      }
    });
  });
});
