import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Secret } from 'otpauth';
import { aSignUpBody } from '../support/builders.js';
import { type ChildService, killHard, spawnService } from '../support/child-service.js';
import { filesUnder } from '../support/files.js';
import { type HttpResponse, http, postJson } from '../support/http-client.js';
import { type TestService, startTestService, tempDir } from '../support/test-service.js';
import { codeOf } from '../support/totp.js';
import { verifyByMail } from '../support/verify-by-mail.js';
import { captureLogs } from '../support/log-capture.js';

const PASSWORD = 'analytical engine 1843';
const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
const claimsOf = (access: string) => JSON.parse(Buffer.from(access.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
/** The code of the step `steps` periods from now: the enrolment spends this step's, so a sign-in answers the next one's. */
const code = (secret: string, steps = 0) => codeOf(secret, new Date(), steps);

interface Enrolled {
  readonly email: string;
  readonly access: string;
  readonly secret: string;
  readonly recoveryCodes: readonly string[];
}

/** A new account over HTTP, its address proven, with a confirmed authenticator (this step's code spent). */
async function enrolledOn(service: Parameters<typeof verifyByMail>[0], label: string): Promise<Enrolled> {
  const { url } = service;
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const up = await postJson(url, '/auth/sign-up', aSignUpBody({ email, password: PASSWORD }));
  expect(up.status, up.text).to.equal(201);
  const access: string = up.body.data.accesstoken;
  await verifyByMail(service, email);
  const enrolment = await postJson(url, '/auth/mfa/totp', { currentpassword: PASSWORD }, bearer(access));
  expect(enrolment.status, enrolment.text).to.equal(200);
  const secret: string = enrolment.body.data.secret;
  const confirmed = await postJson(url, '/auth/mfa/totp/confirm', { code: code(secret) }, bearer(access));
  expect(confirmed.status, confirmed.text).to.equal(200);
  return { email, access, secret, recoveryCodes: confirmed.body.data.recoverycodes };
}

const signIn = (url: string, email: string, password = PASSWORD) => postJson(url, '/auth/sign-in', { email, password });
const mfatokenOf = (res: HttpResponse): string => {
  expect(res.status, res.text).to.equal(202);
  return res.body.data.mfatoken;
};

describe('HTTP: a second factor (TOTP, recovery codes, step-up)', function () {
  this.timeout(60_000);
  let service: TestService;
  before(async () => {
    service = await startTestService({ THROTTLE_MAX_FAILURES: '50', RATE_LIMIT_MAX: '10000' });
  });
  after(async () => service.dispose());

  /** The subjects of the mails the service wrote for `address` (its file sender: one .eml per mail under DATA_DIR/mail). */
  const subjectsTo = async (address: string): Promise<string[]> => {
    await service.deliverMail();
    const dir = join(service.dataDir, 'mail');
    return readdirSync(dir)
      .filter((name) => name.endsWith('.eml'))
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .filter((text) => text.includes(`To: ${address}`))
      .map((text) => /^Subject: (.*)$/m.exec(text)?.[1] ?? '');
  };

  it('enrols: the secret, an otpauth URI and an SVG QR code once; confirmed by a code, ten recovery codes once; GET /auth/me says so', async () => {
    const email = `enrol-${Date.now()}@example.com`;
    const access: string = (await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password: PASSWORD }))).body.data.accesstoken;
    await verifyByMail(service, email);
    const enrolment = await postJson(service.url, '/auth/mfa/totp', { currentpassword: PASSWORD }, bearer(access));
    expect(enrolment.body.message).to.equal('Authenticator enrolment started');
    expect(enrolment.body.data.secret).to.match(/^[A-Z2-7]{32}$/);
    expect(enrolment.body.data.uri).to.match(/^otpauth:\/\/totp\/.+\?.*secret=[A-Z2-7]{32}/);
    expect(enrolment.body.data.qrcode).to.match(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(enrolment.headers['cache-control']).to.equal('no-store');
    const wrong = await postJson(service.url, '/auth/mfa/totp/confirm', { code: '000000' }, bearer(access));
    expect([wrong.status, wrong.body.errors]).to.deep.equal([400, [{ field: 'code', code: 'INCORRECT', message: 'is incorrect or already used' }]]);
    const confirmed = await postJson(service.url, '/auth/mfa/totp/confirm', { code: code(enrolment.body.data.secret) }, bearer(access));
    expect([confirmed.status, confirmed.body.message]).to.deep.equal([200, 'Second factor enrolled']);
    expect(confirmed.body.data.recoverycodes).to.have.length(10);
    const me = await http(service.url, '/auth/me', { method: 'GET', headers: bearer(access) });
    expect(me.body.data.mfa).to.deep.equal({ enrolled: true, recoverycodesleft: 10 });
    const again = await postJson(service.url, '/auth/mfa/totp', { currentpassword: PASSWORD }, bearer(access));
    expect([again.status, again.body.message], 'a factor now: its step-up first').to.deep.equal([403, 'Second factor required']);
    expect(await subjectsTo(email)).to.include('Two-step sign-in is on');
  });

  it('signs in with a code: the right password answers 202 with a challenge and no token, the code answers the documented 201 with amr ["pwd","otp"]', async () => {
    const ada = await enrolledOn(service, 'code');
    const challenge = await signIn(service.url, ada.email);
    expect(challenge.status).to.equal(202);
    expect(challenge.body.message).to.equal('Second factor required');
    expect(Object.keys(challenge.body.data)).to.deep.equal(['mfatoken', 'methods', 'expiresin']);
    expect(challenge.body.data).to.deep.include({ methods: ['totp', 'recovery_code'], expiresin: 300 });
    expect(challenge.headers['cache-control']).to.equal('no-store');
    const res = await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: challenge.body.data.mfatoken, code: code(ada.secret, 1) });
    expect([res.status, res.body.message]).to.deep.equal([201, 'User created successfully']);
    expect(Object.keys(res.body.data)).to.deep.equal(['user', 'accesstoken', 'refreshtoken', 'expiresin']);
    expect(res.body.data.user.email).to.equal(ada.email);
    const claims = claimsOf(res.body.data.accesstoken);
    expect(claims['amr']).to.deep.equal(['pwd', 'otp']);
    expect(claims['auth_time']).to.equal(claims['iat']);
    const refreshed = await postJson(service.url, '/auth/refresh', { refreshtoken: res.body.data.refreshtoken });
    expect(claimsOf(refreshed.body.data.accesstoken)).to.deep.include({ amr: ['pwd', 'otp'], auth_time: claims['auth_time'] });
  });

  it('a wrong password answers exactly the 401 of an account without a factor: the challenge tells a guesser nothing', async () => {
    const ada = await enrolledOn(service, 'guess');
    const plain = `plain-${Date.now()}@example.com`;
    await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: plain, password: PASSWORD }));
    const [withFactor, without] = await Promise.all([signIn(service.url, ada.email, 'not the password'), signIn(service.url, plain, 'not the password')]);
    expect(withFactor.status).to.equal(401);
    expect(withFactor.text).to.equal(without.text);
  });

  it('refuses a replayed code (on a new challenge, and the challenge once answered); a recovery code signs in once', async () => {
    const ada = await enrolledOn(service, 'replay');
    const used = code(ada.secret, 1);
    const first = mfatokenOf(await signIn(service.url, ada.email));
    expect((await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: first, code: used })).status).to.equal(201);
    const replayed = await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: mfatokenOf(await signIn(service.url, ada.email)), code: used });
    expect([replayed.status, replayed.body.message, replayed.body.errors]).to.deep.equal([401, 'Invalid code', [{ field: 'code', code: 'INCORRECT', message: 'is incorrect or already used' }]]);
    const answered = await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: first, recoverycode: ada.recoveryCodes[0] });
    expect([answered.status, answered.body.message]).to.deep.equal([401, 'Invalid or expired sign-in challenge']);
    const recovered = await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: mfatokenOf(await signIn(service.url, ada.email)), recoverycode: ada.recoveryCodes[0] });
    expect(recovered.status, recovered.text).to.equal(201);
    expect(claimsOf(recovered.body.data.accesstoken)['amr']).to.deep.equal(['pwd', 'otp']);
    const reused = await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: mfatokenOf(await signIn(service.url, ada.email)), recoverycode: ada.recoveryCodes[0] });
    expect([reused.status, reused.body.errors]).to.deep.equal([401, [{ field: 'recoverycode', code: 'INCORRECT', message: 'is incorrect or already used' }]]);
    const me = await http(service.url, '/auth/me', { method: 'GET', headers: bearer(recovered.body.data.accesstoken) });
    expect(me.body.data.mfa).to.deep.equal({ enrolled: true, recoverycodesleft: 9 });
    expect(await subjectsTo(ada.email)).to.include('A recovery code was used');
    const activity = await http(service.url, '/auth/me/activity', { method: 'GET', headers: bearer(recovered.body.data.accesstoken) });
    const events: { type: string; reason?: string }[] = activity.body.data.events;
    expect(events.map((event) => event.type)).to.include.members(['mfa_enrolled', 'recovery_code_used']);
    expect(events.filter((event) => event.type === 'sign_in_failed'), 'a replay proves nothing: not a failed sign-in').to.deep.equal([]);
    expect(JSON.stringify(activity.body)).to.not.include(ada.recoveryCodes[0]);
  });

  it('the sixth answer after five wrong codes finds the challenge ended, even with the right code', async () => {
    const ada = await enrolledOn(service, 'sixth');
    const mfatoken = mfatokenOf(await signIn(service.url, ada.email));
    for (let i = 0; i < 5; i++) expect((await postJson(service.url, '/auth/sign-in/mfa', { mfatoken, code: '000000' })).status).to.equal(401);
    const sixth = await postJson(service.url, '/auth/sign-in/mfa', { mfatoken, code: code(ada.secret, 1) });
    expect([sixth.status, sixth.body.message]).to.deep.equal([401, 'Invalid or expired sign-in challenge']);
  });

  it('step-up: a password change is refused (403) on a password-only token, granted after POST /auth/mfa/verify', async () => {
    const ada = await enrolledOn(service, 'step-up');
    const change = (access: string) => postJson(service.url, '/auth/password', { currentpassword: PASSWORD, newpassword: 'difference engine 1822' }, bearer(access));
    const refused = await change(ada.access);
    expect([refused.status, refused.body.message]).to.deep.equal([403, 'Second factor required']);
    const global = await postJson(service.url, '/auth/sign-out', { scope: 'global' }, bearer(ada.access));
    expect(global.status).to.equal(403);
    const raised = await postJson(service.url, '/auth/mfa/verify', { code: code(ada.secret, 1) }, bearer(ada.access));
    expect([raised.status, raised.body.message]).to.deep.equal([200, 'Second factor verified']);
    expect(claimsOf(raised.body.data.accesstoken)['amr']).to.deep.equal(['pwd', 'otp']);
    expect((await change(raised.body.data.accesstoken)).status).to.equal(200);
  });

  it('removes the factor (step-up, password, an unused code): sign-in asks for the password only, and a notice mail goes out', async () => {
    const ada = await enrolledOn(service, 'remove');
    const raised = await postJson(service.url, '/auth/mfa/verify', { recoverycode: ada.recoveryCodes[5] }, bearer(ada.access));
    const removed = await http(service.url, '/auth/mfa/totp', {
      method: 'DELETE',
      body: { currentpassword: PASSWORD, code: code(ada.secret, 1) },
      headers: { ...bearer(raised.body.data.accesstoken), 'content-type': 'application/json' },
    });
    expect(removed.status, removed.text).to.equal(204);
    expect((await signIn(service.url, ada.email)).status).to.equal(201);
    expect(await subjectsTo(ada.email)).to.include('Two-step sign-in is off');
  });

  it('100 parallel uses of one recovery code: exactly one succeeds', async () => {
    const ada = await enrolledOn(service, 'hundred');
    const uses = await Promise.all(
      Array.from({ length: 100 }, () => postJson(service.url, '/auth/mfa/verify', { recoverycode: ada.recoveryCodes[2] }, bearer(ada.access))),
    );
    expect(uses.filter((res) => res.status === 200)).to.have.length(1);
    expect(uses.filter((res) => res.status !== 200 && res.status !== 401 && res.status !== 429)).to.deep.equal([]);
  });

  it('keeps the secret and the recovery codes out of DATA_DIR: not as base32, not as raw bytes, not as typed', async () => {
    const ada = await enrolledOn(service, 'at-rest');
    const raw = Buffer.from(Secret.fromBase32(ada.secret).bytes);
    for (const file of filesUnder(service.dataDir)) {
      const bytes = readFileSync(file);
      for (const needle of [ada.secret, raw.toString('hex'), raw.toString('base64'), ...ada.recoveryCodes, ...ada.recoveryCodes.map((c) => c.replace('-', '').toUpperCase())]) {
        expect(bytes.includes(needle), `${needle} in ${file}`).to.equal(false);
      }
      expect(bytes.includes(raw), `raw secret bytes in ${file}`).to.equal(false);
    }
  });
});

describe('HTTP: two instances on one DATA_DIR accept a code once between them', function () {
  this.timeout(120_000);
  let instances: ChildService[] = [];
  after(async () => Promise.all(instances.map((instance) => killHard(instance.process))));

  it('the same code sent to both at once signs in on exactly one', async () => {
    const dataDir = tempDir('mfa-two');
    const env = { DATA_DIR: dataDir, RATE_LIMIT_MAX: '10000', MAIL_POLL_INTERVAL_MS: '200' };
    instances = [await spawnService(env), await spawnService(env)];
    const [a, b] = instances.map((instance) => instance.url) as [string, string];
    const ada = await enrolledOn({ url: a, dataDir }, 'two');
    const [onA, onB] = [mfatokenOf(await signIn(a, ada.email)), mfatokenOf(await signIn(b, ada.email))];
    const same = code(ada.secret, 1);
    const answers = await Promise.all([postJson(a, '/auth/sign-in/mfa', { mfatoken: onA, code: same }), postJson(b, '/auth/sign-in/mfa', { mfatoken: onB, code: same })]);
    expect(answers.map((res) => res.status).sort()).to.deep.equal([201, 401]);
  });
});

describe('HTTP: the second factor keeps its secrets out of the log (LOG_LEVEL=debug)', function () {
  this.timeout(30_000);
  const logs = captureLogs('debug');
  let service: TestService;
  before(async () => {
    service = await startTestService({ LOG_LEVEL: 'debug' }, { logger: logs.logger });
  });
  after(async () => service.dispose());

  it('never writes the TOTP secret, a code, a recovery code or an mfatoken in any line', async () => {
    const ada = await enrolledOn(service, 'logs');
    const used = code(ada.secret, 1);
    const mfatoken = mfatokenOf(await signIn(service.url, ada.email));
    expect((await postJson(service.url, '/auth/sign-in/mfa', { mfatoken, code: used })).status).to.equal(201);
    const second = mfatokenOf(await signIn(service.url, ada.email));
    expect((await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: second, recoverycode: ada.recoveryCodes[0] })).status).to.equal(201);
    expect((await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: second, code: '000000' })).status).to.equal(401);
    await service.deliverMail();
    const text = logs.lines.join('\n');
    expect(logs.lines.length).to.be.greaterThan(5);
    for (const secret of [ada.secret, used, mfatoken, second, ...ada.recoveryCodes]) expect(text, secret).to.not.include(secret);
  });
});

describe('HTTP: one code answered on many requests at once, under the default throttle (5 failures)', function () {
  this.timeout(120_000);
  let service: TestService;
  before(async () => {
    service = await startTestService({ RATE_LIMIT_MAX: '10000' });
  });
  after(async () => service.dispose());

  const failuresOf = async (access: string): Promise<unknown[]> => {
    const activity = await http(service.url, '/auth/me/activity', { method: 'GET', headers: bearer(access) });
    expect(activity.status, activity.text).to.equal(200);
    return (activity.body.data.events as { type: string }[]).filter((event) => event.type === 'sign_in_failed');
  };

  for (const parallel of [10, 40]) {
    it(`one recovery code on ${parallel} challenges at once: one signs in, the others 401, none counted as a failure`, async () => {
      const ada = await enrolledOn(service, `race-${parallel}`);
      const challenges: string[] = [];
      for (let i = 0; i < parallel; i++) challenges.push(mfatokenOf(await signIn(service.url, ada.email)));
      const answers = await Promise.all(challenges.map((mfatoken) => postJson(service.url, '/auth/sign-in/mfa', { mfatoken, recoverycode: ada.recoveryCodes[1] })));
      expect(answers.map((res) => res.status).sort()).to.deep.equal([201, ...Array<number>(parallel - 1).fill(401)]);
      for (const refused of answers.filter((res) => res.status === 401)) {
        expect(refused.body.errors).to.deep.equal([{ field: 'recoverycode', code: 'INCORRECT', message: 'is incorrect or already used' }]);
      }
      const winner = answers.find((res) => res.status === 201);
      expect(await failuresOf(winner?.body.data.accesstoken)).to.deep.equal([]);
      expect((await signIn(service.url, ada.email)).status, 'the address is not throttled').to.equal(202);
    });
  }

  it('one recovery code in 10 step-ups at once: one raises the session, the others 401 and nothing throttles', async () => {
    const ada = await enrolledOn(service, 'step-up-race');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => postJson(service.url, '/auth/mfa/verify', { recoverycode: ada.recoveryCodes[3] }, bearer(ada.access))),
    );
    expect(answers.map((res) => res.status).sort()).to.deep.equal([200, ...Array<number>(9).fill(401)]);
    expect(await failuresOf(ada.access)).to.deep.equal([]);
    expect((await signIn(service.url, ada.email)).status).to.equal(202);
  });

  it('a replayed code is refused without counting; a wrong one still counts', async () => {
    const ada = await enrolledOn(service, 'replay');
    expect((await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: mfatokenOf(await signIn(service.url, ada.email)), recoverycode: ada.recoveryCodes[4] })).status).to.equal(201);
    for (let i = 0; i < 6; i++) {
      const replay = await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: mfatokenOf(await signIn(service.url, ada.email)), recoverycode: ada.recoveryCodes[4] });
      expect(replay.status, replay.text).to.equal(401);
    }
    expect(await failuresOf(ada.access)).to.deep.equal([]);
    const wrong = await postJson(service.url, '/auth/sign-in/mfa', { mfatoken: mfatokenOf(await signIn(service.url, ada.email)), recoverycode: 'aaaaa-bbbbb' });
    expect(wrong.status).to.equal(401);
    expect((await failuresOf(ada.access)).map((event) => (event as { reason?: string }).reason)).to.deep.equal(['wrong_code']);
  });
});
