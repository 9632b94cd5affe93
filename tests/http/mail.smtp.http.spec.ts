import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { aSignUpBody } from '../support/builders.js';
import { filesUnder } from '../support/files.js';
import { type HttpResponse, http, postJson } from '../support/http-client.js';
import { captureLogs } from '../support/log-capture.js';
import { tokenInText } from '../support/mail.js';
import { type SmtpInbox, startSmtpInbox } from '../support/smtp-inbox.js';
import { type TestService, startTestService } from '../support/test-service.js';

const PASSWORD = 'analytical engine 1843';
const NEW_PASSWORD = 'difference engine 1822';
const APP = 'http://app.test/account';
const FROM = 'Accounts <accounts@service.test>';
const RESET_ANSWER = { message: 'If an account uses this address, a reset link is on its way', data: {} };
const RETRY_BASE_MS = 40;

const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
const fieldsOf = (res: HttpResponse): string[] => (res.body.errors as Array<{ field: string }>).map((issue) => issue.field);

/**
 * Password reset and e-mail verification end to end: the real service (LMDB, argon2, JWT) hands its mails to a
 * real SMTP server over a socket (nodemailer → smtp-server, with AUTH), the test reads the link in the parsed mail
 * and completes the flow over HTTP. The dispatcher's timer is slowed down; the test drains the outbox itself.
 */
describe('HTTP: password reset and e-mail verification over real SMTP', () => {
  let inbox: SmtpInbox;
  let service: TestService;
  const logs = captureLogs('info');
  let n = 0;

  const env = (smtpUrl: string, extra: Record<string, string> = {}) => ({
    SMTP_URL: smtpUrl,
    MAIL_FROM: FROM,
    PUBLIC_APP_URL: APP,
    MAIL_POLL_INTERVAL_MS: '60000',
    MAIL_RETRY_BASE_MS: String(RETRY_BASE_MS),
    RATE_LIMIT_MAX: '100000',
    ...extra,
  });

  before(async () => {
    inbox = await startSmtpInbox();
    service = await startTestService(env(inbox.url), { logger: logs.logger });
  });
  after(async () => {
    await service.dispose();
    await inbox.close();
  });

  const signUp = async (overrides: Record<string, unknown> = {}) => {
    const email = `mail-${++n}@example.com`;
    const res = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password: PASSWORD, ...overrides }));
    expect(res.status, res.text).to.equal(201);
    return { email, access: res.body.data.accesstoken as string, refresh: res.body.data.refreshtoken as string, user: res.body.data.user };
  };
  const mailsTo = (email: string) => inbox.received.filter((mail) => mail.envelopeTo.includes(email));
  const lastMailTo = (email: string, subject: string) => {
    const mail = mailsTo(email).filter((candidate) => candidate.parsed.subject === subject).at(-1);
    if (!mail) throw new Error(`no "${subject}" mail to ${email}; received: ${inbox.received.map((m) => `${m.envelopeTo.join(",")} ${m.parsed.subject ?? ""}`).join('; ')}`);
    return mail;
  };
  const me = (access: string) => http(service.url, '/auth/me', { method: 'GET', headers: bearer(access) });

  it('sign-up mails a verification link over SMTP; the link verifies the address once; /auth/me shows emailverified', async () => {
    const { email, access, user } = await signUp({ name: 'Ada <script>' });
    expect(user.emailverified).to.equal(false);
    expect(mailsTo(email), 'nothing is sent inside the request').to.deep.equal([]);

    await service.deliverMail();

    const mail = lastMailTo(email, 'Confirm your e-mail address');
    expect(mail.parsed.from?.value).to.deep.equal([{ name: 'Accounts', address: 'accounts@service.test' }]);
    expect(mail.parsed.messageId).to.match(/^<[0-9a-f-]{36}@account-service>$/);
    expect(mail.parsed.text).to.include(`${APP}/verify-email#token=verify1.`).and.match(/^Hello,\n/);
    expect(mail.parsed.html, 'no text the sender chose goes to an unverified address').to.not.include('Ada').and.not.include('script');
    const token = tokenInText(mail.parsed.text);
    expect(mail.parsed.html).to.include(token);

    const verified = await postJson(service.url, '/auth/verify-email', { token });
    expect(verified.status, verified.text).to.equal(200);
    expect(verified.headers['cache-control']).to.equal('no-store');
    expect(verified.body).to.deep.equal({ message: 'Email verified successfully', data: { user: { ...user, emailverified: true } } });
    expect((await me(access)).body.data.user.emailverified).to.equal(true);

    const again = await postJson(service.url, '/auth/verify-email', { token });
    expect(again.status).to.equal(400);
    expect(again.body.errors).to.deep.equal([{ field: 'token', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }]);
  });

  it('reset end to end: 202, the mailed link sets a new password and proves the address, every session ends, a notice follows; the link works once', async () => {
    const first = await signUp();
    const second = await postJson(service.url, '/auth/sign-in', { email: first.email, password: PASSWORD });
    await service.deliverMail();

    const requested = await postJson(service.url, '/auth/password-reset', { email: first.email.toUpperCase() });
    expect(requested.status).to.equal(202);
    expect(requested.body).to.deep.equal(RESET_ANSWER);
    expect(mailsTo(first.email).map((mail) => mail.parsed.subject)).to.deep.equal(['Confirm your e-mail address']);
    await service.deliverMail();
    const link = lastMailTo(first.email, 'Reset your password').parsed.text ?? '';
    expect(link).to.include(`${APP}/reset-password#token=reset1.`);
    const token = tokenInText(link);

    const weak = await postJson(service.url, '/auth/password-reset/confirm', { token, newpassword: 'password123' });
    expect(weak.status).to.equal(400);
    expect(fieldsOf(weak)).to.deep.equal(['newpassword']);
    const confirmed = await postJson(service.url, '/auth/password-reset/confirm', { token, newpassword: NEW_PASSWORD });
    expect(confirmed.status, confirmed.text).to.equal(200);
    expect(first.user.emailverified).to.equal(false);
    expect(confirmed.body).to.deep.equal({ message: 'Password reset successfully', data: { user: { ...first.user, emailverified: true } } });

    for (const access of [first.access, second.body.data.accesstoken as string]) expect((await me(access)).status).to.equal(401);
    for (const refreshtoken of [first.refresh, second.body.data.refreshtoken as string]) {
      expect((await postJson(service.url, '/auth/refresh', { refreshtoken })).status).to.equal(401);
    }
    expect((await postJson(service.url, '/auth/sign-in', { email: first.email, password: PASSWORD })).status).to.equal(401);
    expect((await postJson(service.url, '/auth/sign-in', { email: first.email, password: NEW_PASSWORD })).status).to.equal(201);

    await service.deliverMail();
    expect(lastMailTo(first.email, 'Your password was changed').parsed.text).to.include('every device was signed out');
    const reused = await postJson(service.url, '/auth/password-reset/confirm', { token, newpassword: 'a third long passphrase' });
    expect(reused.status).to.equal(400);
    expect(reused.body.errors).to.deep.equal([{ field: 'token', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }]);
  });

  it('refuses a wrong password for a verified account (401, the one body), and lets the right one in', async () => {
    const { email } = await signUp();
    await service.deliverMail();
    const token = tokenInText(lastMailTo(email, 'Confirm your e-mail address').parsed.text);
    expect((await postJson(service.url, '/auth/verify-email', { token })).status).to.equal(200);
    for (const password of ['not the password at all', `${PASSWORD}x`, PASSWORD.toUpperCase()]) {
      const wrong = await postJson(service.url, '/auth/sign-in', { email, password });
      expect(wrong.status, password).to.equal(401);
      expect(wrong.body.message).to.equal('Invalid email or password');
    }
    const right = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
    expect(right.status).to.equal(201);
    expect(right.body.data.user.emailverified).to.equal(true);
  });

  it('answers an unknown address exactly like a known one, and mails nobody', async () => {
    const before = inbox.received.length;
    const unknown = await postJson(service.url, '/auth/password-reset', { email: 'nobody-here@example.com' });
    expect(unknown.status).to.equal(202);
    expect(unknown.body).to.deep.equal(RESET_ANSWER);
    await service.deliverMail();
    expect(inbox.received).to.have.length(before);
  });

  it('answers malformed requests with 400 in the envelope: every offending field at once', async () => {
    const missing = await postJson(service.url, '/auth/password-reset', {});
    expect(missing.status).to.equal(400);
    expect(fieldsOf(missing)).to.deep.equal(['email']);
    const bad = await postJson(service.url, '/auth/password-reset/confirm', { token: 'reset1.forged', newpassword: 'short' });
    expect(bad.status).to.equal(400);
    expect(Object.keys(bad.body)).to.deep.equal(['message', 'code', 'errors']);
    expect(fieldsOf(bad)).to.deep.equal(['token', 'newpassword']);
    const wrongType = await postJson(service.url, '/auth/verify-email', { token: 42 });
    expect(wrongType.status).to.equal(400);
    expect(fieldsOf(wrongType)).to.deep.equal(['token']);
  });

  it('resend (bearer) mails a fresh working link and answers 202; without a token 401', async () => {
    const { email, access } = await signUp();
    await service.deliverMail();
    const resent = await http(service.url, '/auth/verify-email/resend', { headers: bearer(access) });
    expect(resent.status).to.equal(202);
    expect(resent.body).to.deep.equal({ message: 'A verification mail is on its way, unless the address is already verified', data: {} });
    expect((await http(service.url, '/auth/verify-email/resend')).status).to.equal(401);
    await service.deliverMail();
    const links = mailsTo(email).map((mail) => tokenInText(mail.parsed.text));
    expect(links).to.have.length(2);
    expect((await postJson(service.url, '/auth/verify-email', { token: links[1] })).status).to.equal(200);
  });

  it('retries while the SMTP server refuses, then delivers exactly once', async () => {
    inbox.refuseNext(3);
    const { email } = await signUp();
    await service.deliverMail();
    expect(inbox.refusals).to.deep.equal([email]);
    // Backoff doubles from MAIL_RETRY_BASE_MS: due again after 40, 80, then 160 ms; a drain before that sends nothing.
    for (const wait of [RETRY_BASE_MS, 2 * RETRY_BASE_MS, 4 * RETRY_BASE_MS]) {
      await sleep(wait + 5);
      await service.deliverMail();
    }
    expect(inbox.refusals).to.deep.equal([email, email, email]);
    expect(mailsTo(email)).to.have.length(1);
    await sleep(8 * RETRY_BASE_MS + 5);
    await service.deliverMail();
    expect(mailsTo(email), 'no duplicate once accepted').to.have.length(1);
    const warnings = logs.parsed().filter((line) => line['msg'] === 'mail delivery failed; will retry');
    expect(warnings.length).to.be.at.least(3);
  });

  it('dead-letters a mail the SMTP server refuses permanently (5xx) at once: no retry, a warn line with its event id, counted in /metrics', async () => {
    const earlier = inbox.refusals.length;
    inbox.refuseNext(1, 550);
    const { email } = await signUp();
    await service.deliverMail();
    expect(inbox.refusals.slice(earlier)).to.deep.equal([email]);
    for (const wait of [RETRY_BASE_MS, 2 * RETRY_BASE_MS, 4 * RETRY_BASE_MS]) {
      await sleep(wait + 5);
      await service.deliverMail();
    }
    expect(inbox.refusals.slice(earlier), 'never offered again').to.deep.equal([email]);
    expect(mailsTo(email)).to.deep.equal([]);
    const dead = logs.parsed().filter((line) => line['msg'] === 'mail dead-lettered; it will not be retried');
    expect(dead).to.have.length(1);
    expect(dead[0]?.['level']).to.equal(40);
    expect(dead[0]?.['eventId']).to.match(/^[0-9a-f-]{36}$/);
    const metrics = await http(service.url, '/metrics', { method: 'GET' });
    expect(metrics.text).to.match(/^account_mail_dead_letters_total 1$/m);
    expect(metrics.text).to.match(/^account_mail_pending 0$/m);
  });

  it('an SMTP outage (535 to AUTH) dead-letters nothing: the relay is reported failing, and after it recovers every mail is delivered once', async () => {
    inbox.failAuth(true);
    const emails = [];
    for (let i = 0; i < 5; i++) emails.push((await signUp()).email);
    const deadBefore = /^account_mail_dead_letters_total (\d+)$/m.exec((await http(service.url, '/metrics', { method: 'GET' })).text)?.[1];
    let backoff = RETRY_BASE_MS;
    await service.deliverMail();
    for (let run = 0; run < 4; run++) {
      await sleep(backoff + 5);
      await service.deliverMail();
      backoff *= 2;
    }
    expect(inbox.authRefusals(), 'the relay was tried through the outage').to.be.at.least(5);
    for (const email of emails) expect(mailsTo(email), email).to.deep.equal([]);
    const during = (await http(service.url, '/metrics', { method: 'GET' })).text;
    expect(during).to.match(/^account_mail_relay_up 0$/m);
    expect(during).to.match(/^account_mail_pending [1-9]\d*$/m);
    expect(/^account_mail_dead_letters_total (\d+)$/m.exec(during)?.[1], 'no dead letter for the outage').to.equal(deadBefore);
    expect(logs.parsed().some((line) => String(line['msg']).startsWith('mail relay failing') && line['level'] === 40)).to.equal(true);

    inbox.failAuth(false);
    await sleep(backoff + 5);
    await service.deliverMail();
    for (const email of emails) expect(mailsTo(email), email).to.have.length(1);
    await sleep(2 * backoff);
    await service.deliverMail();
    for (const email of emails) expect(mailsTo(email), `${email}: once`).to.have.length(1);
    expect((await http(service.url, '/metrics', { method: 'GET' })).text).to.match(/^account_mail_relay_up 1$/m);
  });

  it('keeps every token out of DATA_DIR, the logs and the event log (the SMTP server is the only holder)', async () => {
    await signUp();
    const { email } = await signUp();
    await postJson(service.url, '/auth/password-reset', { email });
    await service.deliverMail();
    const tokens = inbox.received.filter((mail) => mail.parsed.text?.includes('#token=')).map((mail) => tokenInText(mail.parsed.text));
    expect(tokens.length).to.be.at.least(5);
    const files = filesUnder(service.dataDir);
    expect(files.some((file) => file.includes('/mail/')), 'with SMTP, no mail file is written').to.equal(false);
    const logText = logs.lines.join('\n');
    for (const token of tokens) {
      const mac = token.split('.').at(-1) ?? '';
      for (const file of files) {
        const bytes = readFileSync(file);
        expect(bytes.includes(Buffer.from(token)) || bytes.includes(Buffer.from(mac)), `${file} holds a token`).to.equal(false);
      }
      expect(logText.includes(mac), 'a log line holds a token').to.equal(false);
    }
    expect(logText).not.to.include('s3cret-smtp');
  });
});

describe('HTTP: REQUIRE_VERIFIED_EMAIL=true', () => {
  let inbox: SmtpInbox;
  let service: TestService;
  before(async () => {
    inbox = await startSmtpInbox();
    service = await startTestService({ SMTP_URL: inbox.url, REQUIRE_VERIFIED_EMAIL: 'true', MAIL_POLL_INTERVAL_MS: '60000' });
  });
  after(async () => {
    await service.dispose();
    await inbox.close();
  });

  it('refuses sign-in of an unverified account with 403 in the envelope (only after the right password), then lets it in', async () => {
    const email = 'strict@example.com';
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password: PASSWORD }))).status).to.equal(201);
    const wrong = await postJson(service.url, '/auth/sign-in', { email, password: 'not the password at all' });
    expect(wrong.status).to.equal(401);
    const refused = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.deep.equal({
      message: 'Email address not verified',
      code: 'EMAIL_NOT_VERIFIED',
      errors: [{ field: 'email', code: 'NOT_VERIFIED', message: 'is not verified yet; follow the link in the verification mail' }],
    });
    await service.deliverMail();
    const token = tokenInText(inbox.received.at(-1)?.parsed.text);
    expect((await postJson(service.url, '/auth/verify-email', { token })).status).to.equal(200);
    const admitted = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
    expect(admitted.status).to.equal(201);
    expect(admitted.body.data.user.emailverified).to.equal(true);
  });
});
