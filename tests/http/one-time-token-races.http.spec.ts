import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { type HttpResponse, postJson } from '../support/http-client.js';
import { tokenInText } from '../support/mail.js';
import { type SmtpInbox, startSmtpInbox } from '../support/smtp-inbox.js';
import { type TestService, startTestService } from '../support/test-service.js';

const ROUNDS = 20;
const REFUSED = { message: 'Invalid input data', code: 'INVALID_INPUT', errors: [{ field: 'token', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }] };

/** The loser of a race on one token: the token's documented 400, never a 5xx. */
const refusedToken = (res: HttpResponse | undefined, label: string) => {
  expect(res?.status, `${label}: ${res?.text}`).to.equal(400);
  expect(res?.body, label).to.deep.equal(REFUSED);
};

describe('HTTP: two operations that spend or erase one one-time token at once (issue 51): the loser gets the token refused, never a 5xx', function () {
  this.timeout(60_000);
  let inbox: SmtpInbox;
  let service: TestService;
  let n = 0;
  before(async () => {
    inbox = await startSmtpInbox();
    service = await startTestService({ SMTP_URL: inbox.url, MAIL_POLL_INTERVAL_MS: '60000', RATE_LIMIT_MAX: '100000', PASSWORD_RESET_RATE_LIMIT_MAX: '100000' });
  });
  after(async () => {
    await service?.dispose();
    await inbox?.close();
  });

  const signUp = async (label: string): Promise<string> => {
    const email = `${label}-${++n}@example.com`;
    const res = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
    expect(res.status, res.text).to.equal(201);
    return email;
  };
  const linkTo = (email: string, subject: string): string =>
    tokenInText(inbox.received.filter((mail) => mail.envelopeTo.includes(email) && mail.parsed.subject === subject).at(-1)?.parsed.text);

  it(`confirm and "not me" with one verification token, ${ROUNDS} rounds: one 200, the other the token's 400`, async () => {
    const emails = await Promise.all(Array.from({ length: ROUNDS }, () => signUp('verify-or-cancel')));
    await service.deliverMail();
    for (const [round, email] of emails.entries()) {
      const token = linkTo(email, 'Confirm your e-mail address');
      const verify = () => postJson(service.url, '/auth/verify-email', { token });
      const cancel = () => postJson(service.url, '/auth/verify-email/cancel', { token });
      // The request sent first mostly wins: alternate, so that both a late confirm and a late "not me" are tried.
      const [verified, cancelled] = round % 2 === 0 ? await Promise.all([verify(), cancel()]) : await Promise.all([cancel(), verify()]).then(([c, v]) => [v, c] as const);
      const label = `round ${round}: verify ${verified.status}, cancel ${cancelled.status}`;
      expect([verified.status, cancelled.status].sort(), label).to.deep.equal([200, 400]);
      refusedToken(verified.status === 200 ? cancelled : verified, label);
      const signIn = await postJson(service.url, '/auth/sign-in', { email, password: aSignUpBody()['password'] });
      expect(signIn.status, `${label}: the account is kept if confirmed, gone if cancelled`).to.equal(verified.status === 200 ? 201 : 401);
    }
  });

  it(`two confirmations of one reset token, ${ROUNDS} rounds: one 200, the other the token's 400`, async () => {
    const emails = await Promise.all(Array.from({ length: ROUNDS }, () => signUp('reset-twice')));
    for (const email of emails) expect((await postJson(service.url, '/auth/password-reset', { email })).status).to.equal(202);
    await service.deliverMail();
    for (const [round, email] of emails.entries()) {
      const token = linkTo(email, 'Reset your password');
      const answers = await Promise.all(['first new password 1', 'second new password 2'].map((newpassword) => postJson(service.url, '/auth/password-reset/confirm', { token, newpassword })));
      const label = `round ${round}: ${answers.map((res) => res.status).join(', ')}`;
      expect(answers.filter((res) => res.status === 200), label).to.have.length(1);
      refusedToken(answers.find((res) => res.status !== 200), label);
    }
  });
});
