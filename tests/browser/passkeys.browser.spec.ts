import { chromiumOrSkip, launchChromium } from '../support/chromium.js';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { aSignUpBody } from '../support/builders.js';
import { type HttpResponse, http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { codeOf } from '../support/totp.js';
import { verifyByMail } from '../support/verify-by-mail.js';

const PASSWORD = 'analytical engine 1843';

type Json = Record<string, unknown>;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Json;

/**
 * Runs in the page: the WebAuthn ceremonies an integrator writes around this service's options. `create`: fetch the
 * registration options (bearer), `navigator.credentials.create`, and the credential as JSON. `get`: fetch sign-in
 * options (with the bearer for a step-up, without for a sign-in), `navigator.credentials.get`, the assertion as JSON.
 * `options` replaces the fetched ones (a test that hands the authenticator another ceremony's challenge);
 * `userVerification` replaces theirs (a page that asks for no user verification).
 */
const ceremony = async (input: {
  api: string;
  kind: 'create' | 'get';
  token: string | null;
  /** The account's password, which registration options ask for (`currentpassword`). */
  password?: string;
  options?: Json;
  userVerification?: 'discouraged';
}): Promise<{ credential: Json | null; error: string | null }> => {
  try {
    const path = input.kind === 'create' ? '/auth/passkeys/registration-options' : '/auth/passkeys/authentication-options';
    const headers: Record<string, string> = input.token === null ? {} : { authorization: `Bearer ${input.token}` };
    const body = input.password === undefined ? {} : { body: JSON.stringify({ currentpassword: input.password }), headers: { ...headers, 'content-type': 'application/json' } };
    const fetched = input.options ?? ((await (await fetch(`${input.api}${path}`, { method: 'POST', headers, ...body })).json()) as { data: Json }).data;
    const options = input.userVerification ? { ...fetched, userVerification: input.userVerification } : fetched;
    // The page's WebAuthn API (the tests compile without the DOM library).
    const page = globalThis as unknown as {
      navigator: { credentials: { create(init: unknown): Promise<{ toJSON(): Json }>; get(init: unknown): Promise<{ toJSON(): Json }> } };
      PublicKeyCredential: { parseCreationOptionsFromJSON(json: unknown): unknown; parseRequestOptionsFromJSON(json: unknown): unknown };
    };
    const credential =
      input.kind === 'create'
        ? await page.navigator.credentials.create({ publicKey: page.PublicKeyCredential.parseCreationOptionsFromJSON(options) })
        : await page.navigator.credentials.get({ publicKey: page.PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    return { credential: credential.toJSON(), error: null };
  } catch (error) {
    return { credential: null, error: String(error) };
  }
};

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
};

describe('Browser (Chromium): passkeys with a virtual authenticator', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;
  let service: TestService | undefined;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId = '';
  const servers = [0, 1].map(() => createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title><p>app</p>')));
  let allowed = '';
  let corsOnly = '';
  const api = () => service?.url ?? '';

  before(async function () {
    if (!chromiumOrSkip(this)) return;
    const [appPort, otherPort] = await Promise.all(servers.map(listen));
    // Both are secure contexts (localhost) and may use the RP ID `localhost`; CORS allows both, WebAuthn only the first.
    allowed = `http://localhost:${appPort}`;
    corsOnly = `http://localhost:${otherPort}`;
    service = await startTestService({
      STORAGE: 'memory',
      CORS_ORIGINS: `${allowed},${corsOnly}`,
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGINS: allowed,
      RATE_LIMIT_MAX: '10000',
    });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${allowed}/`);
    cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    authenticatorId = (
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      })
    ).authenticatorId;
  });

  after(async () => {
    await browser?.close();
    await service?.dispose();
    await Promise.all(servers.filter((server) => server.listening).map((server) => new Promise((done) => server.close(done))));
  });

  const run = async (input: Omit<Parameters<typeof ceremony>[0], 'api'>): Promise<Json> => {
    const outcome = await page.evaluate(ceremony, { api: api(), ...input });
    expect(outcome.error, 'the ceremony in the page').to.equal(null);
    return outcome.credential ?? {};
  };
  const signInWith = (response: Json) => postJson(api(), '/auth/sign-in/passkey', { response });
  const refusal = (res: HttpResponse) => [res.status, res.body.message, res.body.errors?.[0]?.field];

  let token = '';
  let email = '';
  let passkeyId = '';
  let secret = '';

  it('registers a passkey from a page of an allowed origin (201), lists it, renames it; a replayed registration is refused', async () => {
    email = `passkey-${Date.now()}@example.com`;
    token = (await postJson(api(), '/auth/sign-up', aSignUpBody({ email, password: PASSWORD }))).body.data.accesstoken;
    await verifyByMail(service as TestService, email);
    const created = await run({ kind: 'create', token, password: PASSWORD });
    const added = await postJson(api(), '/auth/passkeys', { response: created, name: 'Laptop' }, bearer(token));
    expect([added.status, added.body.message]).to.deep.equal([201, 'Passkey added']);
    passkeyId = added.body.data.passkey.id;
    expect(added.body.data.passkey).to.deep.include({ id: created['id'], name: 'Laptop', lastusedat: null, transports: ['internal'], backedup: false });
    const listed = await http(api(), '/auth/passkeys', { method: 'GET', headers: bearer(token) });
    expect(listed.body.data.passkeys.map((passkey: Json) => passkey['id'])).to.deep.equal([passkeyId]);
    const renamed = await http(api(), `/auth/passkeys/${passkeyId}`, { method: 'PATCH', body: { name: 'Work laptop' }, headers: { ...bearer(token), 'content-type': 'application/json' } });
    expect(renamed.body.data.passkey.name).to.equal('Work laptop');
    const replayed = await postJson(api(), '/auth/passkeys', { response: created }, bearer(token));
    expect(refusal(replayed)).to.deep.equal([400, 'Invalid input data', 'response']);
  });

  it('signs out, then signs in with the passkey and no e-mail: the documented 201, amr ["webauthn"]; the same assertion again is refused', async () => {
    expect((await postJson(api(), '/auth/sign-out', { scope: 'local' }, bearer(token))).status).to.equal(204);
    const assertion = await run({ kind: 'get', token: null });
    const signedIn = await signInWith(assertion);
    expect([signedIn.status, signedIn.body.message]).to.deep.equal([201, 'User created successfully']);
    expect(Object.keys(signedIn.body.data)).to.deep.equal(['user', 'accesstoken', 'refreshtoken', 'expiresin']);
    expect(signedIn.body.data.user.email).to.equal(email);
    expect(claimsOf(signedIn.body.data.accesstoken)['amr']).to.deep.equal(['webauthn']);
    token = signedIn.body.data.accesstoken;
    expect(refusal(await signInWith(assertion)), 'replayed').to.deep.equal([400, 'Invalid input data', 'response']);
  });

  it('refuses an assertion to a registration challenge, one without user verification, and one made on an origin CORS allows but WebAuthn does not', async () => {
    const registration = (await postJson(api(), '/auth/passkeys/registration-options', { currentpassword: PASSWORD }, bearer(token))).body.data;
    const crossed = await run({ kind: 'get', token: null, options: { challenge: registration.challenge, rpId: 'localhost', userVerification: 'required' } });
    expect(refusal(await signInWith(crossed)), 'a registration challenge').to.deep.equal([400, 'Invalid input data', 'response']);
    const noUv = await signInWith(await run({ kind: 'get', token: null, userVerification: 'discouraged' }));
    expect(refusal(noUv), 'a page that asked for no user verification').to.deep.equal([400, 'Invalid input data', 'response']);
    expect(noUv.body.errors[0].message).to.match(/user verification/);
    expect((await signInWith(await run({ kind: 'get', token: null }))).status, 'the same page, verified: accepted').to.equal(201);
    await page.goto(`${corsOnly}/`);
    const elsewhere = await run({ kind: 'get', token: null });
    await page.goto(`${allowed}/`);
    const wrongOrigin = await signInWith(elsewhere);
    expect(refusal(wrongOrigin)).to.deep.equal([400, 'Invalid input data', 'response']);
    expect(wrongOrigin.body.errors[0].message).to.match(/origin/);
  });

  it('answers the second-factor challenge of a password sign-in (amr ["pwd","webauthn"]), and performs step-up for a password-only session', async () => {
    const beforeFactor = (await postJson(api(), '/auth/sign-in', { email, password: PASSWORD })).body.data.accesstoken;
    expect(claimsOf(beforeFactor)['amr']).to.deep.equal(['pwd']);
    const enrolment = await postJson(api(), '/auth/mfa/totp', { currentpassword: PASSWORD }, bearer(token));
    secret = enrolment.body.data.secret;
    expect((await postJson(api(), '/auth/mfa/totp/confirm', { code: codeOf(secret, new Date()) }, bearer(token))).status).to.equal(200);

    const challenge = await postJson(api(), '/auth/sign-in', { email, password: PASSWORD });
    expect([challenge.status, challenge.body.data.methods]).to.deep.equal([202, ['totp', 'recovery_code', 'webauthn']]);
    const answered = await postJson(api(), '/auth/sign-in/mfa', { mfatoken: challenge.body.data.mfatoken, response: await run({ kind: 'get', token: null }) });
    expect(answered.status, answered.text).to.equal(201);
    expect(claimsOf(answered.body.data.accesstoken)['amr']).to.deep.equal(['pwd', 'webauthn']);

    const refused = await http(api(), '/auth/mfa/recovery-codes', { method: 'POST', headers: bearer(beforeFactor) });
    expect([refused.status, refused.body.message]).to.deep.equal([403, 'Second factor required']);
    const raised = await postJson(api(), '/auth/mfa/verify', { response: await run({ kind: 'get', token: beforeFactor }) }, bearer(beforeFactor));
    expect(raised.status, raised.text).to.equal(200);
    expect(claimsOf(raised.body.data.accesstoken)['amr']).to.deep.equal(['pwd', 'webauthn']);
    const codes = await http(api(), '/auth/mfa/recovery-codes', { method: 'POST', headers: bearer(raised.body.data.accesstoken) });
    expect(codes.status, codes.text).to.equal(200);
    token = raised.body.data.accesstoken;
  });

  it('refuses a counter that went backwards (a possible clone), then a removed passkey', async () => {
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    const [credential] = credentials;
    expect(credential?.signCount).to.be.greaterThan(2);
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: credential!.credentialId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credential!, signCount: credential!.signCount - 2 } });
    const cloned = await signInWith(await run({ kind: 'get', token: null }));
    expect(refusal(cloned)).to.deep.equal([400, 'Invalid input data', 'response']);
    expect(cloned.body.errors[0].message).to.match(/copied/);
    const activity = await http(api(), '/auth/me/activity', { method: 'GET', headers: bearer(token) });
    expect(activity.body.data.events.map((event: Json) => event['type'])).to.include.members(['passkey_added', 'signed_in_with_passkey', 'passkey_counter_regressed']);

    const removed = await http(api(), `/auth/passkeys/${passkeyId}`, { method: 'DELETE', headers: bearer(token) });
    expect(removed.status, removed.text).to.equal(204);
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: credential!.credentialId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credential!, signCount: credential!.signCount + 10 } });
    const gone = await signInWith(await run({ kind: 'get', token: null }));
    expect(refusal(gone)).to.deep.equal([400, 'Invalid input data', 'response']);
    expect(gone.body.errors[0].message).to.match(/does not have/);
  });
});
