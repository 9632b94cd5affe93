import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { type HttpResponse, http, postJson } from '../support/http-client.js';
import { tokenInText } from '../support/mail.js';
import { type SmtpInbox, startSmtpInbox } from '../support/smtp-inbox.js';
import { type TestService, startTestService } from '../support/test-service.js';

const PASSWORD = 'analytical engine 1843';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('HTTP: REQUIRE_VERIFIED_EMAIL=true leaves an unverified account nothing but asking for a verification mail (issue 23, finding 2)', function () {
  this.timeout(30_000);
  let service: TestService;
  let inbox: SmtpInbox;
  before(async () => {
    inbox = await startSmtpInbox();
    service = await startTestService({ REQUIRE_VERIFIED_EMAIL: 'true', SMTP_URL: inbox.url, MAIL_POLL_INTERVAL_MS: '60000' });
  });
  after(async () => {
    await service?.dispose();
    await inbox?.close();
  });

  it('the tokens of sign-up work only for resend; the link ends them; a sign-in after it works everywhere', async () => {
    const email = 'unverified@example.com';
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
    expect(up.status, up.text).to.equal(201);
    expect(up.body.message).to.equal('User created successfully');
    const { accesstoken, refreshtoken } = up.body.data;

    for (const [label, res] of [
      ['GET /auth/me', await http(service.url, '/auth/me', { method: 'GET', headers: bearer(accesstoken) })],
      ['PATCH /auth/me', await http(service.url, '/auth/me', { method: 'PATCH', body: { name: 'Mallory', lastname: 'M' }, headers: { ...bearer(accesstoken), 'content-type': 'application/json' } })],
      ['GET /auth/sessions', await http(service.url, '/auth/sessions', { method: 'GET', headers: bearer(accesstoken) })],
      ['POST /auth/refresh', await postJson(service.url, '/auth/refresh', { refreshtoken })],
    ] as const) {
      expect(res.status, label).to.equal(403);
      expect(res.body, label).to.deep.equal({ message: 'Email address not verified', code: 'EMAIL_NOT_VERIFIED', errors: [{ field: 'email', code: 'NOT_VERIFIED', message: 'is not verified yet; follow the link in the verification mail' }] });
    }
    const resent = await http(service.url, '/auth/verify-email/resend', { method: 'POST', headers: bearer(accesstoken) });
    expect(resent.status, resent.text).to.equal(202);

    await service.deliverMail();
    const link = inbox.received.filter((mail) => mail.envelopeTo.includes(email)).at(-1);
    expect((await postJson(service.url, '/auth/verify-email', { token: tokenInText(link?.parsed.text) })).status).to.equal(200);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(accesstoken) })).status, 'the pre-verification session ended').to.equal(401);
    expect((await postJson(service.url, '/auth/refresh', { refreshtoken })).status).to.equal(401);

    const signedIn = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
    expect(signedIn.status).to.equal(201);
    const me = await http(service.url, '/auth/me', { method: 'GET', headers: bearer(signedIn.body.data.accesstoken) });
    expect(me.status).to.equal(200);
    expect(me.body.data.user.emailverified).to.equal(true);
  });

  const mailTo = (email: string, subject: string) => inbox.received.filter((mail) => mail.envelopeTo.includes(email) && mail.parsed.subject === subject).at(-1);

  it("squatting: the owner of an address a stranger signed up with takes the account over by a reset; the stranger's password and sessions end", async () => {
    const email = 'victim@example.com';
    const squat = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password: 'the stranger password 1' }));
    expect(squat.status).to.equal(201);
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password: PASSWORD }))).status, "the owner's own sign-up").to.equal(409);

    expect((await postJson(service.url, '/auth/password-reset', { email })).status).to.equal(202);
    await service.deliverMail();
    const token = tokenInText(mailTo(email, 'Reset your password')?.parsed.text);
    const reset = await postJson(service.url, '/auth/password-reset/confirm', { token, newpassword: PASSWORD });
    expect(reset.status, reset.text).to.equal(200);

    const owner = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
    expect(owner.status, 'the reset proved the mailbox: no 403').to.equal(201);
    expect(owner.body.data.user.emailverified).to.equal(true);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(owner.body.data.accesstoken) })).status).to.equal(200);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(squat.body.data.accesstoken) })).status, "the stranger's session").to.equal(401);
    expect((await postJson(service.url, '/auth/refresh', { refreshtoken: squat.body.data.refreshtoken })).status).to.equal(401);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: 'the stranger password 1' })).status, "the stranger's password").to.equal(401);
  });

  it('resend by address, no token: 202 with the same body and headers for an unverified account, a verified one and no account; only the unverified one is mailed', async () => {
    const unverified = 'resend-unverified@example.com';
    const verified = 'resend-verified@example.com';
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: unverified }))).status).to.equal(201);
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: verified }))).status).to.equal(201);
    await service.deliverMail();
    const link = tokenInText(mailTo(verified, 'Confirm your e-mail address')?.parsed.text);
    expect((await postJson(service.url, '/auth/verify-email', { token: link })).status).to.equal(200);
    const before = inbox.received.length;

    const answers: HttpResponse[] = [];
    for (const email of [unverified, verified, 'resend-nobody@example.com']) answers.push(await postJson(service.url, '/auth/verify-email/resend', { email }));
    const [first, second, third] = answers as [HttpResponse, HttpResponse, HttpResponse];
    const comparable = (res: HttpResponse) => {
      const { date: _date, 'x-request-id': _id, 'x-ratelimit-remaining': _remaining, 'x-ratelimit-reset': _reset, ...headers } = res.headers;
      return { status: res.status, text: res.text, headers };
    };
    expect(first.status).to.equal(202);
    expect(comparable(second)).to.deep.equal(comparable(first));
    expect(comparable(third)).to.deep.equal(comparable(first));

    await service.deliverMail();
    const sent = inbox.received.slice(before);
    expect(sent.map((mail) => mail.envelopeTo)).to.deep.equal([[unverified]]);
    const fresh = tokenInText(sent[0]?.parsed.text);
    expect((await postJson(service.url, '/auth/verify-email', { token: fresh })).status, 'the resent link verifies').to.equal(200);

    expect((await postJson(service.url, '/auth/verify-email/resend', {})).status, 'no token and no address').to.equal(401);
    const malformed = await postJson(service.url, '/auth/verify-email/resend', { email: 'not an address' });
    expect(malformed.status).to.equal(400);
    expect(malformed.body.errors).to.deep.equal([{ field: 'email', code: 'INVALID_FORMAT', message: 'must be a valid email address' }]);
  });

  it("an unverified account's refresh answers 403 and changes nothing: asked again with the same token it is 403 again, never taken for reuse", async () => {
    const email = 'refresh-unverified@example.com';
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
    const { refreshtoken } = up.body.data;
    for (let i = 0; i < 3; i++) expect((await postJson(service.url, '/auth/refresh', { refreshtoken })).status, `refresh ${i + 1}`).to.equal(403);
    const resent = await http(service.url, '/auth/verify-email/resend', { method: 'POST', headers: bearer(up.body.data.accesstoken) });
    expect(resent.status, 'the session was not ended as a reuse').to.equal(202);
  });

  it('"not me": the verification mail\'s second link deletes the stranger\'s account and frees the address for its owner', async () => {
    const email = 'not-me@example.com';
    const squat = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password: 'the stranger password 1' }));
    expect(squat.status).to.equal(201);
    await service.deliverMail();
    const text = mailTo(email, 'Confirm your e-mail address')?.parsed.text ?? '';
    const cancelLink = /\S+\/cancel-sign-up#token=\S+/.exec(text)?.[0] ?? '';
    const token = decodeURIComponent(cancelLink.split('#token=')[1] ?? '');

    const cancelled = await postJson(service.url, '/auth/verify-email/cancel', { token });
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.body).to.deep.equal({ message: 'Sign-up cancelled', data: {} });
    expect((await postJson(service.url, '/auth/verify-email/cancel', { token })).status, 'once').to.equal(400);
    expect((await postJson(service.url, '/auth/refresh', { refreshtoken: squat.body.data.refreshtoken })).status).to.equal(401);
    expect((await http(service.url, '/auth/verify-email/resend', { method: 'POST', headers: bearer(squat.body.data.accesstoken) })).status).to.equal(401);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: 'the stranger password 1' })).status).to.equal(401);
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password: PASSWORD }))).status, 'the address is free').to.equal(201);
  });
});
