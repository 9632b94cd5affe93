import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { type HttpResponse, http, postJson } from '../support/http-client.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { codeOf } from '../support/totp.js';
import { mailedToken, verifyByMail } from '../support/verify-by-mail.js';

const PASSWORD = 'analytical engine 1843';
const NEW_PASSWORD = 'difference engine 1822';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const claimsOf = (access: string) => JSON.parse(Buffer.from(access.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
const answer = (res: HttpResponse) => [res.status, res.body?.message];

describe('HTTP: a credential is added only by whoever holds the account now, and a reset takes it back whole (issue 51)', function () {
  this.timeout(60_000);
  let service: TestService;
  before(async () => {
    // The default settings (REQUIRE_VERIFIED_EMAIL off); only the per-client rate limit is raised for the test's volume.
    // The passkeys' origin is the app's (the soft authenticator's, http://localhost:5173).
    service = await startTestService({ RATE_LIMIT_MAX: '10000', PUBLIC_APP_URL: 'http://localhost:5173' });
  });
  after(async () => service.dispose());

  const fresh = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const signUp = async (email: string, password = PASSWORD) => {
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password }));
    expect(up.status, up.text).to.equal(201);
    return up.body.data as { accesstoken: string; refreshtoken: string };
  };
  const verified = async (label: string) => {
    const email = fresh(label);
    const tokens = await signUp(email);
    await verifyByMail(service, email);
    return { email, ...tokens };
  };
  /** A confirmed authenticator for the account of `access` (its password typed); the step of its code is spent. */
  const withFactor = async (access: string): Promise<string> => {
    const enrolment = await postJson(service.url, '/auth/mfa/totp', { currentpassword: PASSWORD }, bearer(access));
    expect(enrolment.status, enrolment.text).to.equal(200);
    const secret: string = enrolment.body.data.secret;
    expect((await postJson(service.url, '/auth/mfa/totp/confirm', { code: codeOf(secret, new Date()) }, bearer(access))).status).to.equal(200);
    return secret;
  };

  it('squat, then reset: a stranger who signed up with the address adds no way in, and the owner\'s reset leaves nothing of theirs', async () => {
    const email = fresh('squatted');
    const stranger = await signUp(email, 'the stranger chose this one');
    const totp = await postJson(service.url, '/auth/mfa/totp', { currentpassword: 'the stranger chose this one' }, bearer(stranger.accesstoken));
    expect(answer(totp)).to.deep.equal([403, 'Email address not verified']);
    const options = await postJson(service.url, '/auth/passkeys/registration-options', { currentpassword: 'the stranger chose this one' }, bearer(stranger.accesstoken));
    expect(answer(options)).to.deep.equal([403, 'Email address not verified']);

    expect((await postJson(service.url, '/auth/password-reset', { email })).status).to.equal(202);
    const reset = await postJson(service.url, '/auth/password-reset/confirm', { token: await mailedToken(service, email, 'Reset your password'), newpassword: NEW_PASSWORD });
    expect(reset.status, reset.text).to.equal(200);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(stranger.accesstoken) })).status, "the stranger's session").to.equal(401);
    expect((await postJson(service.url, '/auth/refresh', { refreshtoken: stranger.refreshtoken })).status).to.equal(401);
    const owner = await postJson(service.url, '/auth/sign-in', { email, password: NEW_PASSWORD });
    expect(answer(owner), 'the password alone: no factor of anyone else asked for').to.deep.equal([201, 'User created successfully']);
    expect(owner.body.data.user.emailverified).to.equal(true);
    expect(claimsOf(owner.body.data.accesstoken)['amr']).to.deep.equal(['pwd']);
    const passkeys = await http(service.url, '/auth/passkeys', { method: 'GET', headers: bearer(owner.body.data.accesstoken) });
    expect(passkeys.body.data.passkeys).to.deep.equal([]);
  });

  it('a stolen access token alone adds neither a factor nor a passkey: each needs the password, and wrong ones end the session', async () => {
    const ada = await verified('stolen');
    for (const path of ['/auth/mfa/totp', '/auth/passkeys/registration-options']) {
      const none = await postJson(service.url, path, {}, bearer(ada.accesstoken));
      expect([none.status, none.body.errors], path).to.deep.equal([400, [{ field: 'currentpassword', code: 'REQUIRED', message: 'is required' }]]);
      const wrong = await postJson(service.url, path, { currentpassword: 'a guess of the thief' }, bearer(ada.accesstoken));
      expect([wrong.status, wrong.body.errors], path).to.deep.equal([400, [{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]]);
    }
    const guesses = await Promise.all(Array.from({ length: 6 }, () => postJson(service.url, '/auth/mfa/totp', { currentpassword: 'another guess' }, bearer(ada.accesstoken))));
    expect(guesses.map((res) => res.status).sort(), 'PASSWORD_CHANGE_MAX_FAILURES (5) per session, two spent above').to.deep.equal([400, 400, 400, 401, 401, 401]);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(ada.accesstoken) })).status, 'the session ended').to.equal(401);
  });

  it('a refresh token copied before a step-up does not gain it: the step-up rotates it, and the copy is a reuse that ends the session', async () => {
    const ada = await verified('copied');
    const secret = await withFactor(ada.accesstoken);
    const raised = await postJson(service.url, '/auth/mfa/verify', { code: codeOf(secret, new Date(), 1) }, bearer(ada.accesstoken));
    expect(raised.status, raised.text).to.equal(200);
    expect(raised.body.data.refreshtoken).to.not.equal(ada.refreshtoken);
    const copy = await postJson(service.url, '/auth/refresh', { refreshtoken: ada.refreshtoken });
    expect(copy.status, 'the copy refreshes into nothing').to.equal(401);
    expect((await postJson(service.url, '/auth/refresh', { refreshtoken: raised.body.data.refreshtoken })).status, 'reuse ended the session').to.equal(401);
  });

  it('sign-out `others` and ending a session by id need the step-up that `global` needs', async () => {
    const ada = await verified('others');
    const secret = await withFactor(ada.accesstoken);
    const challenge = await postJson(service.url, '/auth/sign-in', { email: ada.email, password: PASSWORD });
    const phone = await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: challenge.body.data.mfatoken, code: codeOf(secret, new Date(), 1) });
    expect(phone.status, phone.text).to.equal(201);
    const phoneId = String(claimsOf(phone.body.data.accesstoken)['sid']);
    expect(answer(await postJson(service.url, '/auth/sign-out', { scope: 'others' }, bearer(ada.accesstoken)))).to.deep.equal([403, 'Second factor required']);
    expect(answer(await http(service.url, `/auth/sessions/${phoneId}`, { method: 'DELETE', headers: bearer(ada.accesstoken) }))).to.deep.equal([403, 'Second factor required']);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(phone.body.data.accesstoken) })).status, 'the raised session lives').to.equal(200);
  });

  it('a passkey posted on options taken before a factor was turned on is refused without the step-up', async () => {
    const ada = await verified('late');
    const options = await postJson(service.url, '/auth/passkeys/registration-options', { currentpassword: PASSWORD }, bearer(ada.accesstoken));
    expect(options.status, options.text).to.equal(200);
    await withFactor(ada.accesstoken);
    const response = new SoftAuthenticator('http://localhost:5173').create(options.body.data);
    const late = await postJson(service.url, '/auth/passkeys', { response, name: 'Late' }, bearer(ada.accesstoken));
    expect(answer(late)).to.deep.equal([403, 'Second factor required']);
    expect((await http(service.url, '/auth/passkeys', { method: 'GET', headers: bearer(ada.accesstoken) })).body.data.passkeys).to.deep.equal([]);
  });

  it('the export lists the credentials as their tables declare them (GET /auth/me/export, records)', async () => {
    const ada = await verified('export');
    const options = await postJson(service.url, '/auth/passkeys/registration-options', { currentpassword: PASSWORD }, bearer(ada.accesstoken));
    const response = new SoftAuthenticator('http://localhost:5173').create(options.body.data);
    expect((await postJson(service.url, '/auth/passkeys', { response, name: 'Laptop' }, bearer(ada.accesstoken))).status).to.equal(201);
    const exported = await http(service.url, '/auth/me/export', { method: 'GET', headers: bearer(ada.accesstoken) });
    expect(exported.status, exported.text).to.equal(200);
    const claims = JSON.parse(Buffer.from(ada.accesstoken.split('.')[1] ?? '', 'base64url').toString()) as { sub: string };
    expect(exported.headers['content-disposition'], 'saved as a file named after the account').to.equal(`attachment; filename="account-${claims.sub}.json"`);
    expect(exported.body.data.records.totpfactors).to.deep.equal([]);
    expect(exported.body.data.records.identities).to.deep.equal([]);
    expect(exported.body.data.records.passkeys.map((passkey: Record<string, unknown>) => [passkey['id'], passkey['name'], typeof passkey['createdat']])).to.deep.equal([[response['id'], 'Laptop', 'string']]);
  });
});
