import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { describeWithMongo, uniqueDbName } from '../support/mongo-target.js';
import { createDatabase, describeWithPostgres } from '../support/postgres.js';
import { type TestService, startTestService } from '../support/test-service.js';

const PASSWORD = 'analytical engine 1843';
const NEW_PASSWORD = 'difference engine 1822';

/** The mails the service delivered to `address` (its file sender writes one .eml per mail under DATA_DIR/mail). */
function mailsTo(service: TestService, address: string, subject: string): number {
  const dir = join(service.dataDir, 'mail');
  const names = (() => {
    try {
      return readdirSync(dir).filter((name) => name.endsWith('.eml'));
    } catch {
      return [];
    }
  })();
  return names.filter((name) => {
    const text = readFileSync(join(dir, name), 'utf8');
    return text.includes(`To: ${address}`) && text.includes(`Subject: ${subject}`);
  }).length;
}

const statusCounts = (statuses: readonly number[]) => statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

/** The race cases of issue 34 against the real service on one store (STORAGE and its settings in `env`). */
function limitsUnderConcurrency(storage: string, env: () => Record<string, string> | Promise<Record<string, string>>): void {
  describe(`HTTP: every limit holds for simultaneous requests on one account (${storage}, real argon2)`, function () {
    this.timeout(60_000);
    let service: TestService;
    before(async () => (service = await startTestService({ RATE_LIMIT_MAX: '100000', PASSWORD_RESET_RATE_LIMIT_MAX: '100000', ...(await env()) })));
    after(async () => service.dispose());

    const signUp = async (email: string) => {
      const res = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password: PASSWORD }));
      expect(res.status).to.equal(201);
      return (res.body as { data: { accesstoken: string } }).data.accesstoken;
    };

    it('30 simultaneous wrong sign-ins: the first 5 get 401, every other one 429, and then the right password too', async () => {
      const email = 'burst@example.com';
      await signUp(email);
      const answers = await Promise.all(Array.from({ length: 30 }, () => postJson(service.url, '/auth/sign-in', { email, password: 'wrong password' })));
      expect(statusCounts(answers.map((res) => res.status))).to.deep.equal({ 401: 5, 429: 25 });
      expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).status, 'the right password, now throttled').to.equal(429);
    });

    it('a right password in a burst of wrong ones is accepted only while fewer than 5 failures are counted, and its success starts a new count', async () => {
      const email = 'guess@example.com';
      const token = await signUp(email);
      const passwords = Array.from({ length: 30 }, (_, i) => (i === 29 ? PASSWORD : `wrong password ${i}`));
      const answers = await Promise.all(passwords.map((password) => postJson(service.url, '/auth/sign-in', { email, password })));
      const counts = statusCounts(answers.map((res) => res.status));
      // The account's own record of the burst, in commit order (the feed is newest first).
      const feed = await http(service.url, '/auth/me/activity?limit=100', { method: 'GET', headers: { authorization: `Bearer ${token}` } });
      const outcomes = ((feed.body as { data: { events: Array<{ type: string }> } }).data.events)
        .map((event) => event.type)
        .filter((type) => type === 'sign_in_failed' || type === 'user_signed_in')
        .reverse();
      const success = outcomes.indexOf('user_signed_in');
      expect(counts[401] ?? 0, 'every 401 is a failure recorded').to.equal(outcomes.filter((type) => type === 'sign_in_failed').length);
      expect(counts[201] ?? 0, 'every 201 is a sign-in recorded').to.equal(success === -1 ? 0 : 1);
      expect(counts[429], 'every other attempt refused').to.equal(30 - (counts[401] ?? 0) - (counts[201] ?? 0));
      if (success === -1) {
        expect(counts[401], 'refused: exactly the cap of failures counted').to.equal(5);
      } else {
        expect(success, 'accepted only while fewer than 5 failures were counted').to.be.below(5);
        expect(outcomes.length - success - 1, 'after it, a new count: at most 5 failures').to.be.at.most(5);
      }
    });

    it('40 simultaneous password changes, the right current password among them: each check is counted before it runs, at most 5 before a change', async () => {
      const email = 'changer@example.com';
      const token = await signUp(email);
      const change = (current: string) =>
        http(service.url, '/auth/password', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: { currentpassword: current, newpassword: NEW_PASSWORD } });
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => change(i === 29 ? PASSWORD : `wrong password ${i}`)));
      const counts = statusCounts(answers.map((res) => res.status));
      // The account's own record of the burst, in commit order: whichever password signs in now reads it.
      const old = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
      const current = old.status === 201 ? old : await postJson(service.url, '/auth/sign-in', { email, password: NEW_PASSWORD });
      expect(current.status, 'the old or the new password signs in').to.equal(201);
      const reader = (current.body as { data: { accesstoken: string } }).data.accesstoken;
      const feed = await http(service.url, '/auth/me/activity?limit=100', { method: 'GET', headers: { authorization: `Bearer ${reader}` } });
      const outcomes = (feed.body as { data: { events: Array<{ type: string; reason?: string }> } }).data.events
        .filter((event) => (event.type === 'sign_in_failed' && event.reason === 'wrong_current_password') || event.type === 'password_changed')
        .map((event) => event.type)
        .reverse();
      const changed = outcomes.indexOf('password_changed');
      expect(counts[400] ?? 0, 'every 400 is a wrong current password recorded').to.equal(outcomes.filter((type) => type === 'sign_in_failed').length);
      expect(counts[200] ?? 0, 'every 200 is the change recorded').to.equal(changed === -1 ? 0 : 1);
      if (changed === -1) {
        expect(counts[400], 'no change: exactly the cap of checks evaluated, the password kept').to.be.at.most(5);
        expect(old.status, 'the old password still signs in').to.equal(201);
      } else {
        expect(changed, 'the right password was among the first 5 checks counted').to.be.below(5);
        expect(outcomes.length - changed - 1, 'after the change, a new count: at most 5 more').to.be.at.most(5);
        expect(old.status, 'changed: the old password no longer signs in').to.equal(401);
      }
    });

    it('30 simultaneous verification resends leave at most the cap (3, sign-up included) in mails', async () => {
      const email = 'resend@example.com';
      const token = await signUp(email);
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => http(service.url, '/auth/verify-email/resend', { method: 'POST', headers: { authorization: `Bearer ${token}` } })),
      );
      expect(new Set(answers.map((res) => res.status))).to.deep.equal(new Set([202]));
      await service.deliverMail();
      expect(mailsTo(service, email, 'Confirm your e-mail address')).to.equal(3);
    });

    it('10 simultaneous reset requests for one address send the cap (3) of reset mails', async () => {
      const email = 'resetter@example.com';
      await signUp(email);
      const answers = await Promise.all(Array.from({ length: 10 }, () => postJson(service.url, '/auth/password-reset', { email })));
      expect(new Set(answers.map((res) => res.status))).to.deep.equal(new Set([202]));
      await service.deliverMail();
      expect(mailsTo(service, email, 'Reset your password')).to.equal(3);
    });
  });
}

limitsUnderConcurrency('LMDB', () => ({}));
limitsUnderConcurrency('memory', () => ({ STORAGE: 'memory' }));
describeWithMongo('HTTP on MongoDB: limits under concurrency', (target) => {
  limitsUnderConcurrency('MongoDB', () => ({ STORAGE: 'mongodb', MONGODB_URI: target().uri, MONGODB_DB: uniqueDbName('limits') }));
});
describeWithPostgres('HTTP on PostgreSQL: limits under concurrency', (url) => {
  limitsUnderConcurrency('PostgreSQL', async () => ({ STORAGE: 'postgres', DATABASE_URL: await createDatabase(url(), 'limits') }));
});
