import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { mailedToken, mailedTokens, verifyByMail } from '../support/verify-by-mail.js';

const PASSWORD = 'analytical engine 1843';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const fresh = (label: string) => `${label}-${randomUUID()}@example.com`;

describe('HTTP: a change of address, its "this was not me", and two accounts racing for one address (issue 53)', function () {
  this.timeout(60_000);
  let service: TestService;
  before(async () => {
    service = await startTestService({ RATE_LIMIT_MAX: '10000', PASSWORD_RESET_RATE_LIMIT_MAX: '10000' });
  });
  after(async () => service.dispose());

  const verified = async (label: string) => {
    const email = fresh(label);
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
    await verifyByMail(service, email);
    return { email, id: up.body.data.user.id as string, access: up.body.data.accesstoken as string };
  };
  const ask = async (account: { access: string }, newemail: string) => {
    const res = await postJson(service.url, '/auth/email', { newemail, currentpassword: PASSWORD }, bearer(account.access));
    expect(res.status, res.text).to.equal(202);
  };

  it('moves the account once the new address confirms: the new address signs in, the old one and its reset link no more', async () => {
    const ada = await verified('ada');
    expect((await postJson(service.url, '/auth/password-reset', { email: ada.email })).status).to.equal(202);
    const reset = await mailedToken(service, ada.email, 'Reset your password');
    const moved = fresh('countess');
    await ask(ada, moved);
    expect((await postJson(service.url, '/auth/sign-in', { email: moved, password: PASSWORD })).status, 'not before the confirmation').to.equal(401);
    const confirmed = await postJson(service.url, '/auth/email/confirm', { token: await mailedToken(service, moved, 'Confirm your new e-mail address') });
    expect(confirmed.status, confirmed.text).to.equal(200);
    expect(confirmed.body.data.user).to.deep.include({ id: ada.id, email: moved, emailverified: true });
    expect((await postJson(service.url, '/auth/sign-in', { email: moved, password: PASSWORD })).status).to.equal(201);
    expect((await postJson(service.url, '/auth/sign-in', { email: ada.email, password: PASSWORD })).status).to.equal(401);
    expect((await postJson(service.url, '/auth/password-reset/confirm', { token: reset, newpassword: 'difference engine 1822' })).status).to.equal(400);
    const me = await http(service.url, '/auth/me', { method: 'GET', headers: bearer(ada.access) });
    expect(me.body.data.user.email, 'the session goes on, on the new address').to.equal(moved);
  });

  it('"this was not me": the notice\'s link cancels the change and ends every session; the confirmation is then refused', async () => {
    const ada = await verified('victim');
    const moved = fresh('attacker');
    await ask(ada, moved);
    const cancelled = await postJson(service.url, '/auth/email/cancel', { token: await mailedToken(service, ada.email, 'Your e-mail address is about to change') });
    expect(cancelled.status, cancelled.text).to.equal(204);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(ada.access) })).status).to.equal(401);
    const late = await postJson(service.url, '/auth/email/confirm', { token: await mailedToken(service, moved, 'Confirm your new e-mail address') });
    expect(late.status).to.equal(400);
    expect((await postJson(service.url, '/auth/sign-in', { email: ada.email, password: PASSWORD })).status).to.equal(201);
  });

  it("the owner's password reset ends an intruder's pending change: its confirmation is refused", async () => {
    const ada = await verified('reset-owner');
    const intruders = fresh('intruder');
    await ask(ada, intruders);
    expect((await postJson(service.url, '/auth/password-reset', { email: ada.email })).status).to.equal(202);
    const reset = await postJson(service.url, '/auth/password-reset/confirm', { token: await mailedToken(service, ada.email, 'Reset your password'), newpassword: 'a brand new passphrase 1815' });
    expect(reset.status, reset.text).to.equal(200);
    const confirm = await postJson(service.url, '/auth/email/confirm', { token: await mailedToken(service, intruders, 'Confirm your new e-mail address') });
    expect([confirm.status, confirm.body.errors]).to.deep.equal([400, [{ field: 'token', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }]]);
    expect((await postJson(service.url, '/auth/sign-in', { email: ada.email, password: 'a brand new passphrase 1815' })).status).to.equal(201);
    expect((await postJson(service.url, '/auth/sign-in', { email: intruders, password: 'a brand new passphrase 1815' })).status).to.equal(401);
  });

  it('a password change ends a pending change too, and a change asked while a reset commits (racing it) is dead', async () => {
    const ada = await verified('change-owner');
    const intruders = fresh('intruder2');
    await ask(ada, intruders);
    const changed = await postJson(service.url, '/auth/password', { currentpassword: PASSWORD, newpassword: 'another new passphrase 1816' }, bearer(ada.access));
    expect(changed.status, changed.text).to.equal(200);
    const confirm = await postJson(service.url, '/auth/email/confirm', { token: await mailedToken(service, intruders, 'Confirm your new e-mail address') });
    expect(confirm.status).to.equal(400);

    const bob = await verified('race-owner');
    const racers = fresh('racer');
    expect((await postJson(service.url, '/auth/password-reset', { email: bob.email })).status).to.equal(202);
    const token = await mailedToken(service, bob.email, 'Reset your password');
    const [asked, reset] = await Promise.all([
      postJson(service.url, '/auth/email', { newemail: racers, currentpassword: PASSWORD }, bearer(bob.access)),
      postJson(service.url, '/auth/password-reset/confirm', { token, newpassword: 'a raced new passphrase 1817' }),
    ]);
    expect(reset.status, reset.text).to.equal(200);
    if (asked.status === 202) {
      const late = await postJson(service.url, '/auth/email/confirm', { token: await mailedToken(service, racers, 'Confirm your new e-mail address') });
      expect(late.status, 'a change asked in the epoch the reset ended').to.equal(400);
    } else expect(asked.status).to.equal(401);
    const me = await postJson(service.url, '/auth/sign-in', { email: bob.email, password: 'a raced new passphrase 1817' });
    expect(me.status).to.equal(201);
  });

  it('after a confirmed change, the old address gets a notice whose link (one use of 10 at once) takes the account back and ends every session', async () => {
    const ada = await verified('taken');
    const intruders = fresh('taker');
    await ask(ada, intruders);
    expect((await postJson(service.url, '/auth/email/confirm', { token: await mailedToken(service, intruders, 'Confirm your new e-mail address') })).status).to.equal(200);
    const next = fresh('taker-next');
    await ask(ada, next);
    const revert = await mailedToken(service, ada.email, 'Your e-mail address was changed');
    const answers = await Promise.all(Array.from({ length: 10 }, () => postJson(service.url, '/auth/email/revert', { token: revert })));
    expect(answers.map((answer) => answer.status).sort()).to.deep.equal([204, ...Array.from({ length: 9 }, () => 400)]);
    const spent = await postJson(service.url, '/auth/email/revert', { token: 'email-revert1.spent' });
    expect(new Set(answers.filter((answer) => answer.status === 400).map((answer) => answer.text))).to.deep.equal(new Set([spent.text]));
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(ada.access) })).status, 'every session ended').to.equal(401);
    expect((await postJson(service.url, '/auth/sign-in', { email: intruders, password: PASSWORD })).status).to.equal(401);
    const late = await postJson(service.url, '/auth/email/confirm', { token: await mailedToken(service, next, 'Confirm your new e-mail address') });
    expect(late.status, "the intruder's pending change ended").to.equal(400);
    const back = await postJson(service.url, '/auth/sign-in', { email: ada.email, password: PASSWORD });
    expect([back.status, back.body.data?.user?.id, back.body.data?.user?.emailverified]).to.deep.equal([201, ada.id, true]);
    const reset = await postJson(service.url, '/auth/password-reset/confirm', { token: await mailedToken(service, ada.email, 'Reset your password'), newpassword: 'only the owner knows this 1815' });
    expect(reset.status, 'the revert mailed a reset link: the old password, which the intruder knew, goes').to.equal(200);
    expect((await postJson(service.url, '/auth/sign-in', { email: ada.email, password: PASSWORD })).status).to.equal(401);
  });

  it('gives one new address to exactly one of two accounts confirming at once; the loser\'s 400 is a spent link\'s, byte for byte', async () => {
    const target = fresh('wanted');
    const ada = await verified('ada');
    const grace = await verified('grace');
    await ask(ada, target);
    await ask(grace, target);
    const links = await mailedTokens(service, target, 'Confirm your new e-mail address', 2);
    expect(new Set(links).size, 'one link each').to.equal(2);
    const answers = await Promise.all(links.map((token) => postJson(service.url, '/auth/email/confirm', { token })));
    expect(answers.map((answer) => answer.status).sort()).to.deep.equal([200, 400]);
    const spent = await postJson(service.url, '/auth/email/confirm', { token: 'email-change1.spent' });
    expect(answers.find((answer) => answer.status === 400)?.text).to.equal(spent.text);
  });
});
