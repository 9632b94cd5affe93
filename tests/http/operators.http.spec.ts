import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ERROR_TABLE } from '../../src/interfaces/http/shared/error-table.js';
import { admin, apiKeyFor } from '../support/api-keys.js';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { codeOf } from '../support/totp.js';
import { verifyByMail } from '../support/verify-by-mail.js';

const PASSWORD = 'analytical engine 1843';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const amrOf = (access: string) => (JSON.parse(Buffer.from(access.split('.')[1] ?? '', 'base64url').toString()) as { amr: string[] }).amr;

describe('HTTP: operators, accounts whose own access token the admin API accepts (issue 65)', function () {
  this.timeout(60_000);
  let service: TestService;
  let reader: string;
  /** The operator: an account with a confirmed authenticator app; `oneFactor` is its sign-up's token (amr ["pwd"]). */
  const operator = { email: `operator-${randomUUID()}@example.com`, id: '', oneFactor: '', secret: '' };

  before(async () => {
    service = await startTestService({ RATE_LIMIT_MAX: '10000', THROTTLE_MAX_FAILURES: '50' });
    reader = (await apiKeyFor(service.dataDir, 'users:read')).key;
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: operator.email, password: PASSWORD }));
    [operator.id, operator.oneFactor] = [up.body.data.user.id, up.body.data.accesstoken];
    await verifyByMail(service, operator.email);
    const enrolment = await postJson(service.url, '/auth/mfa/totp', { currentpassword: PASSWORD }, bearer(operator.oneFactor));
    operator.secret = enrolment.body.data.secret;
    const confirmed = await postJson(service.url, '/auth/mfa/totp/confirm', { code: codeOf(operator.secret, new Date()) }, bearer(operator.oneFactor));
    expect(confirmed.status, confirmed.text).to.equal(200);
  });
  after(async () => service.dispose());

  const account = async (label: string) => {
    const email = `${label}-${randomUUID()}@example.com`;
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password: PASSWORD }));
    return { email, id: up.body.data.user.id as string, token: up.body.data.accesstoken as string };
  };
  /** The operator's sign-in with both factors (POST /auth/sign-in, then /auth/sign-in/mfa, the next step's code): its access token, once. */
  let bothFactors: string | undefined;
  const signedInWithBothFactors = async (): Promise<string> => (bothFactors ??= await signIn());
  const signIn = async (): Promise<string> => {
    const challenge = await postJson(service.url, '/auth/sign-in', { email: operator.email, password: PASSWORD });
    expect(challenge.status, challenge.text).to.equal(202);
    const done = await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: challenge.body.data.mfatoken, code: codeOf(operator.secret, new Date(), 1) });
    expect(done.status, done.text).to.equal(201);
    return done.body.data.accesstoken;
  };
  const asAdmin = (method: string, path: string, token: string) => http(service.url, path, { method, headers: bearer(token) });
  const disabledOf = async (id: string): Promise<boolean> => (await asAdmin('GET', `/admin/users/${id}`, reader)).body.data.user.disabled;

  it("refuses a valid access token of an account that is no operator: 403 NOT_AN_OPERATOR, on reads and writes", async () => {
    const someone = await account('someone');
    for (const [method, path] of [['GET', '/admin/users?query=someone'], ['POST', `/admin/users/${someone.id}/disable`]] as const) {
      const res = await asAdmin(method, path, someone.token);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([403, { message: ERROR_TABLE.NOT_AN_OPERATOR.message, code: 'NOT_AN_OPERATOR', errors: [{ field: null, message: 'this account does not hold the operator role' }] }]);
    }
    expect(await disabledOf(someone.id)).to.equal(false);
  });

  it('grant-operator names an account by its address: an unknown or malformed one is a one-line error (exit 1, no stack); a second grant changes nothing', async () => {
    const unknown = await admin(service.dataDir, ['grant-operator', `nobody-${randomUUID()}@example.com`]);
    expect([unknown.code, unknown.out, unknown.err]).to.deep.equal([1, [], ['admin grant-operator: Account not found; email no account has this address']]);
    const malformed = await admin(service.dataDir, ['revoke-operator', 'not an address']);
    expect([malformed.code, malformed.err.length]).to.deep.equal([1, 1]);
    expect(malformed.err[0]).to.match(/^admin revoke-operator: Invalid input data; email /);
    expect(malformed.err[0]).not.to.match(/\n|\bat .*\.ts:\d+/);
    const granted = await admin(service.dataDir, ['grant-operator', operator.email.toUpperCase()]);
    expect([granted.code, JSON.parse(granted.out[0] ?? '{}')]).to.deep.equal([0, { accountId: operator.id, email: operator.email, operator: true, changed: true }]);
    const again = await admin(service.dataDir, ['grant-operator', operator.email]);
    expect([again.code, JSON.parse(again.out[0] ?? '{}').changed]).to.deep.equal([0, false]);
  });

  it("refuses an operator's token from a one-factor sign-in: 403 SECOND_FACTOR_REQUIRED, saying to sign in with the second factor", async () => {
    expect(amrOf(operator.oneFactor)).to.deep.equal(['pwd']);
    const res = await asAdmin('GET', '/admin/users?query=operator', operator.oneFactor);
    expect([res.status, res.body.code, res.body.message]).to.deep.equal([403, 'SECOND_FACTOR_REQUIRED', 'Second factor required']);
    expect(res.body.errors[0].message).to.include('POST /auth/sign-in/mfa').and.include('POST /auth/mfa/totp');
  });

  it("accepts an operator's token from a sign-in with the second factor: finds, disables and enables an account, as the operator (never introspection)", async () => {
    const token = await signedInWithBothFactors();
    expect(amrOf(token)).to.deep.equal(['pwd', 'otp']);
    const target = await account('managed');
    const found = await asAdmin('GET', `/admin/users?query=${encodeURIComponent(target.email.slice(0, 20))}`, token);
    expect([found.status, found.body.data.users.map((user: { id: string }) => user.id)]).to.deep.equal([200, [target.id]]);
    const disabled = await asAdmin('POST', `/admin/users/${target.id}/disable`, token);
    expect([disabled.status, disabled.body.data.user.disabled]).to.deep.equal([200, true]);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(target.token) })).status, "the target's token").to.equal(401);
    expect((await asAdmin('POST', `/admin/users/${target.id}/enable`, token)).body.data.user.disabled).to.equal(false);
    const introspect = await http(service.url, '/oauth/introspect', { body: JSON.stringify({ token: target.token }), headers: { 'content-type': 'application/json', ...bearer(token) } });
    expect([introspect.status, introspect.body.code]).to.deep.equal([403, 'INSUFFICIENT_SCOPE']);
    const owner = await postJson(service.url, '/auth/sign-in', { email: target.email, password: PASSWORD });
    const activity = await http(service.url, '/auth/me/activity', { method: 'GET', headers: bearer(owner.body.data.accesstoken) });
    const byOperator = (activity.body.data.events as Record<string, unknown>[]).filter((entry) => entry['by'] === 'administrator').map((entry) => entry['type']);
    expect(byOperator).to.deep.equal(['account_enabled', 'sessions_ended', 'account_disabled']);
    // The owner reads "an administrator"; an operator reads who: the operator's account and its address.
    expect(activity.body.data.events.some((entry: Record<string, unknown>) => 'actor' in entry || 'actoremail' in entry), "no operator named to the owner").to.equal(false);
    const forOperators = await asAdmin('GET', `/admin/users/${target.id}/activity`, token);
    expect(forOperators.status, forOperators.text).to.equal(200);
    const named = (forOperators.body.data.events as Record<string, unknown>[]).filter((entry) => entry['by'] === 'administrator').map((entry) => [entry['type'], entry['actor'], entry['actoremail']]);
    expect(named).to.deep.equal([
      ['account_enabled', `operator:${operator.id}`, operator.email],
      ['sessions_ended', `operator:${operator.id}`, operator.email],
      ['account_disabled', `operator:${operator.id}`, operator.email],
    ]);
    expect((await asAdmin('GET', '/admin/users/no-such-account/activity', reader)).body.code, 'an unknown account').to.equal('USER_NOT_FOUND');
    expect((await asAdmin('GET', '/admin/users?query=managed', reader)).status, 'API keys work as before').to.equal(200);
  });

  it('revoke-operator ends the access at once: the same token is refused (403 NOT_AN_OPERATOR), every one of 20 simultaneous requests, and nothing changes', async () => {
    const token = await signedInWithBothFactors();
    const target = await account('kept');
    expect((await asAdmin('GET', `/admin/users/${target.id}`, token)).status).to.equal(200);
    const revoked = await admin(service.dataDir, ['revoke-operator', operator.email]);
    expect([revoked.code, JSON.parse(revoked.out[0] ?? '{}')]).to.deep.equal([0, { accountId: operator.id, email: operator.email, operator: false, changed: true }]);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => asAdmin(i % 2 === 0 ? 'POST' : 'GET', i % 2 === 0 ? `/admin/users/${target.id}/disable` : `/admin/users/${target.id}`, token)));
    expect(answers.map((res) => `${res.status} ${res.body.code}`)).to.deep.equal(Array.from({ length: 20 }, () => '403 NOT_AN_OPERATOR'));
    expect(await disabledOf(target.id)).to.equal(false);
    const operatorActivity = await http(service.url, '/auth/me/activity', { method: 'GET', headers: bearer(token) });
    expect((operatorActivity.body.data.events as { type: string }[]).map((entry) => entry.type).filter((type) => type.startsWith('operator_'))).to.deep.equal(['operator_revoked', 'operator_granted']);
  });
});
