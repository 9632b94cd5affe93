import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
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
      expect(res.body, label).to.deep.equal({ message: 'Email address not verified', errors: [{ field: 'email', message: 'is not verified yet; follow the link in the verification mail' }] });
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
});
