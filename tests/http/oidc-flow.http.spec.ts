import { expect } from 'chai';
import * as client from 'openid-client';
import { admin } from '../support/api-keys.js';
import { http, postJson } from '../support/http-client.js';
import { mailedTexts, mailedToken, verifyByMail } from '../support/verify-by-mail.js';
import { codeOf } from '../support/totp.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { Browser, actionIn, csrfIn, freePort, registerApp } from '../support/oidc-browser.js';

const APP = 'https://app.example.com/callback';
const PASSWORD = 'correct-horse-battery-staple';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('HTTP: an app signs a person in through the service (OpenID Connect code flow with openid-client, issue 64)', function () {
  this.timeout(60_000);
  let service: TestService;
  let issuer = '';
  let config: client.Configuration;
  let userId = '';
  let credentials = '';
  const email = 'grace@example.com';
  before(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer, RATE_LIMIT_MAX: '10000' });
    userId = (await postJson(service.url, '/auth/sign-up', { name: 'Grace', lastname: 'Hopper', email, password: PASSWORD })).body.data.user.id as string;
    const made = JSON.parse((await admin(service.dataDir, ['create-client', '--name', 'Notebook', '--redirect-uri', APP])).out[0] ?? '{}') as { client_id: string; client_secret: string };
    config = await client.discovery(new URL(issuer), made.client_id, made.client_secret, undefined, { execute: [client.allowInsecureRequests] });
    credentials = Buffer.from(`${encodeURIComponent(made.client_id)}:${encodeURIComponent(made.client_secret)}`).toString('base64');
  });
  after(async () => service.dispose());

  /** Starts a flow as an app does: PKCE, state and nonce, and the browser at the authorization endpoint. */
  const start = async (browser: Browser, scope = 'openid email profile') => {
    const verifier = client.randomPKCECodeVerifier();
    const checks = { verifier, state: client.randomState(), nonce: client.randomNonce() };
    const url = client.buildAuthorizationUrl(config, { redirect_uri: APP, scope, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: checks.state, nonce: checks.nonce });
    const { page, url: left } = await browser.follow(await browser.go(url.href));
    return { checks, page: page as Response, left };
  };

  it('signs in at its page, asks consent once, and hands the app a code the app turns into an ID token for the account', async () => {
    const browser = new Browser(issuer);
    const { checks, page } = await start(browser);
    const signInHtml = await page.text();
    expect(page.status).to.equal(200);
    expect(signInHtml).to.include('<label for="email">Email</label>').and.include('<label for="password">Password</label>').and.include('>Sign in</button>');
    expect(page.headers.get('content-security-policy')).to.include("frame-ancestors 'none'").and.not.include('unsafe-inline');
    const consent = await browser.follow(await browser.go(actionIn(signInHtml), { method: 'POST', form: { csrf: csrfIn(signInHtml), email, password: PASSWORD } }));
    const consentHtml = await (consent.page as Response).text();
    expect(consentHtml).to.include('Allow Notebook?').and.include('See your e-mail address').and.include('>Deny</button>');
    const back = await browser.follow(await browser.go(actionIn(consentHtml), { method: 'POST', form: { csrf: csrfIn(consentHtml), decision: 'allow' } }));
    const redirect = back.url as URL;
    expect(`${redirect.origin}${redirect.pathname}`).to.equal(APP);
    expect([redirect.searchParams.get('state'), redirect.searchParams.get('iss')]).to.deep.equal([checks.state, issuer]);
    const tokens = await client.authorizationCodeGrant(config, redirect, { pkceCodeVerifier: checks.verifier, expectedState: checks.state, expectedNonce: checks.nonce });
    const claims = tokens.claims();
    expect(claims).to.include({ iss: issuer, sub: userId, aud: config.clientMetadata().client_id, email, email_verified: false, given_name: 'Grace', family_name: 'Hopper', name: 'Grace Hopper', nonce: checks.nonce });
    expect(claims?.['amr']).to.deep.equal(['pwd']);
    expect(claims?.['acr'], 'one factor').to.equal('aal1');
    expect(claims?.['auth_time']).to.be.a('number');
    const info = await client.fetchUserInfo(config, tokens.access_token, userId);
    expect(info).to.include({ sub: userId, email });
    const posted = await http(service.url, '/oidc/me', { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect([posted.status, posted.body.sub, posted.body.email], 'userinfo by POST').to.deep.equal([200, userId, email]);
    // Consent is remembered for this account and app, and the pages' session too: the next flow comes back with a code at once.
    const next = await start(browser);
    expect(next.page, 'no page: signed in, consent given').to.equal(null);
    expect(next.left?.searchParams.get('code')).to.be.a('string');
    // The first code is spent: the same redirect again is invalid_grant, and the grant it came from is revoked with
    // every token of it: the next flow asks consent again.
    const again = await client.authorizationCodeGrant(config, redirect, { pkceCodeVerifier: checks.verifier, expectedState: checks.state, expectedNonce: checks.nonce }).catch((error: unknown) => error);
    expect((again as { error?: string }).error).to.equal('invalid_grant');
    const revoked = await client.fetchUserInfo(config, tokens.access_token, userId).catch((error: unknown) => error);
    expect(revoked).to.be.instanceOf(Error);
    const afterReuse = await start(browser);
    expect(afterReuse.page && /<h1>[^<]*/.exec(await afterReuse.page.text())?.[0]).to.equal('<h1>Allow Notebook?');
  });

  it('reads a wrong password and an unknown address alike, and refuses a form without its CSRF token', async () => {
    const browser = new Browser(issuer);
    const { page } = await start(browser);
    const html = await page.text();
    const wrong = await browser.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), email, password: 'not the password' } });
    const unknown = await browser.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), email: 'nobody@example.com', password: 'not the password' } });
    const [wrongText, unknownText] = [await wrong.text(), await unknown.text()];
    expect([wrong.status, unknown.status]).to.deep.equal([401, 401]);
    expect(wrongText).to.include('Wrong e-mail or password.');
    expect(wrongText).to.equal(unknownText);
    const forged = await browser.go(actionIn(html), { method: 'POST', form: { email, password: PASSWORD } });
    expect(forged.status).to.equal(403);
  });

  it('applies the sign-in throttle at the pages as at POST /auth/sign-in, to a known and an unknown address alike', async () => {
    const known = 'throttled.at.pages@example.com';
    await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email: known, password: PASSWORD });
    const attempt = async (address: string, password: string) => {
      const browser = new Browser(issuer);
      const { page } = await start(browser);
      const html = await page.text();
      const answer = await browser.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), email: address, password } });
      return { status: answer.status, alert: /<p role="alert">([^<]*)/.exec(await answer.text())?.[1] ?? null };
    };
    for (const address of [known, 'nobody.throttled@example.com']) {
      // Five failures at once (THROTTLE_MAX_FAILURES): each counted, each refused as a wrong password.
      const failures = await Promise.all(Array.from({ length: 5 }, () => attempt(address, 'not the password')));
      expect(failures.map((failure) => failure.status), address).to.deep.equal([401, 401, 401, 401, 401]);
    }
    const [right, unknown] = [await attempt(known, PASSWORD), await attempt('nobody.throttled@example.com', PASSWORD)];
    expect(right, 'the right password, throttled').to.deep.equal({ status: 429, alert: 'Too many failed sign-ins for this address. Wait a few minutes, then try again.' });
    expect(unknown, 'an unknown address reads the same').to.deep.equal(right);
    const api = await postJson(service.url, '/auth/sign-in', { email: known, password: PASSWORD });
    expect(api.status, 'one throttle: the API refuses it too').to.equal(429);
  });

  it("mails the new-device notice for a first sign-in at the pages from a phone, as POST /auth/sign-in does", async () => {
    const LAPTOP = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile/15E148 Safari/604.1';
    const address = 'new.device.at.pages@example.com';
    await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email: address, password: PASSWORD }, { 'user-agent': LAPTOP });
    await verifyByMail(service, address);
    const phone = new Browser(issuer, { 'user-agent': PHONE });
    const { page } = await start(phone);
    const html = await page.text();
    const consent = await phone.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), email: address, password: PASSWORD } });
    expect(consent.status).to.equal(303);
    const [notice = ''] = await mailedTexts(service, address, 'A new sign-in to your account', 1);
    expect(notice).to.include('Safari on iOS');
  });

  it('sends the app error=access_denied when the person denies', async () => {
    const browser = new Browser(issuer);
    const { checks, page } = await start(browser, 'openid');
    const html = await page.text();
    const consent = await browser.follow(await browser.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), email, password: PASSWORD } }));
    const consentHtml = await (consent.page as Response).text();
    const back = await browser.follow(await browser.go(actionIn(consentHtml), { method: 'POST', form: { csrf: csrfIn(consentHtml), decision: 'deny' } }));
    expect([back.url?.searchParams.get('error'), back.url?.searchParams.get('state')]).to.deep.equal(['access_denied', checks.state]);
  });

  it('asks no consent of a first-party app: signed in, the browser goes back with a code at once', async () => {
    const made = JSON.parse((await admin(service.dataDir, ['create-client', '--name', 'Our own', '--redirect-uri', APP, '--first-party'])).out[0] ?? '{}') as { client_id: string; client_secret: string };
    const own = await client.discovery(new URL(issuer), made.client_id, made.client_secret, undefined, { execute: [client.allowInsecureRequests] });
    const browser = new Browser(issuer);
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(own, { redirect_uri: APP, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st-own' });
    const { page } = await browser.follow(await browser.go(url.href));
    const html = await (page as Response).text();
    const back = await browser.follow(await browser.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), email, password: PASSWORD } }));
    expect(back.page, 'no consent page').to.equal(null);
    expect(back.url?.searchParams.get('code')).to.be.a('string');
    const tokens = await client.authorizationCodeGrant(own, back.url as URL, { pkceCodeVerifier: verifier, expectedState: 'st-own' });
    expect(tokens.claims()?.sub).to.equal(userId);
  });

  it('one account, one truth: a disabled account gets no code at the pages, and its tokens no userinfo', async () => {
    const other = 'ada.disabled@example.com';
    const otherId = (await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email: other, password: PASSWORD })).body.data.user.id as string;
    const browser = new Browser(issuer);
    const { checks, page } = await start(browser);
    const html = await page.text();
    const consent = await browser.follow(await browser.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), email: other, password: PASSWORD } }));
    const consentHtml = await (consent.page as Response).text();
    const back = await browser.follow(await browser.go(actionIn(consentHtml), { method: 'POST', form: { csrf: csrfIn(consentHtml), decision: 'allow' } }));
    const tokens = await client.authorizationCodeGrant(config, back.url as URL, { pkceCodeVerifier: checks.verifier, expectedState: checks.state, expectedNonce: checks.nonce });
    expect(tokens.claims()?.sub).to.equal(otherId);
    const key = JSON.parse((await admin(service.dataDir, ['create-key', '--scopes', 'users:write'])).out[0] ?? '{}') as { key: string };
    const disabled = await http(service.url, `/admin/users/${otherId}/disable`, { method: 'POST', headers: { authorization: `Bearer ${key.key}` } });
    expect(disabled.status).to.be.within(200, 299);
    const info = await client.fetchUserInfo(config, tokens.access_token, otherId).catch((error: unknown) => error);
    expect(info).to.be.instanceOf(Error);
    // At the pages, its right password is refused as any wrong one.
    const fresh = new Browser(issuer);
    const again = await start(fresh);
    const againHtml = await again.page.text();
    const refused = await fresh.go(actionIn(againHtml), { method: 'POST', form: { csrf: csrfIn(againHtml), email: other, password: PASSWORD } });
    expect(refused.status).to.equal(401);
    expect(await refused.text()).to.include('Wrong e-mail or password.');
  });

  it('asks an account with a second factor for it at the pages (Code, Verify) before any code goes to the app', async () => {
    const address = 'two.factors@example.com';
    const up = await postJson(service.url, '/auth/sign-up', { name: 'Alan', lastname: 'Turing', email: address, password: PASSWORD });
    const access = up.body.data.accesstoken as string;
    await verifyByMail(service, address);
    const secret = (await postJson(service.url, '/auth/mfa/totp', { currentpassword: PASSWORD }, bearer(access))).body.data.secret as string;
    const confirmed = await postJson(service.url, '/auth/mfa/totp/confirm', { code: codeOf(secret, new Date()) }, bearer(access));
    const recoveryCodes = confirmed.body.data.recoverycodes as string[];
    const signInThenFactor = async () => {
      const browser = new Browser(issuer);
      const flow = await start(browser);
      const html = await flow.page.text();
      const factor = await browser.follow(await browser.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), email: address, password: PASSWORD } }));
      return { browser, flow, factor: factor.page as Response };
    };
    const { browser, flow, factor } = await signInThenFactor();
    const factorHtml = await factor.text();
    expect(factor.status).to.equal(200);
    expect(factorHtml).to.include('<label for="code">Code</label>').and.include('>Verify</button>').and.not.include('Allow');
    expect(factor.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
    // A wrong code: the same page again, with its alert; no code went to the app.
    const wrong = await browser.go(actionIn(factorHtml), { method: 'POST', form: { csrf: csrfIn(factorHtml), mfatoken: /name="mfatoken" value="([^"]+)"/.exec(factorHtml)?.[1] ?? '', code: '000000' } });
    expect([wrong.status, wrong.headers.get('location')]).to.deep.equal([401, null]);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).to.include('role="alert"').and.include('<label for="code">Code</label>');
    const forged = await browser.go(actionIn(wrongHtml), { method: 'POST', form: { mfatoken: /name="mfatoken" value="([^"]+)"/.exec(wrongHtml)?.[1] ?? '', code: codeOf(secret, new Date(), 1) } });
    expect(forged.status, 'no CSRF token').to.equal(403);
    // The next step's code (this one's was spent by the enrolment): signed in with both factors, then consent, then the app.
    const verified = await browser.follow(await browser.go(actionIn(wrongHtml), { method: 'POST', form: { csrf: csrfIn(wrongHtml), mfatoken: /name="mfatoken" value="([^"]+)"/.exec(wrongHtml)?.[1] ?? '', code: codeOf(secret, new Date(), 1) } }));
    const consentHtml = await (verified.page as Response).text();
    expect(/<h1>[^<]*/.exec(consentHtml)?.[0]).to.equal('<h1>Allow Notebook?');
    const back = await browser.follow(await browser.go(actionIn(consentHtml), { method: 'POST', form: { csrf: csrfIn(consentHtml), decision: 'allow' } }));
    const tokens = await client.authorizationCodeGrant(config, back.url as URL, { pkceCodeVerifier: flow.checks.verifier, expectedState: flow.checks.state, expectedNonce: flow.checks.nonce });
    expect(tokens.claims()?.['amr']).to.deep.equal(['pwd', 'otp']);
    expect(tokens.claims()?.['acr'], 'two factors').to.equal('aal2');
    // A recovery code answers too; once.
    const other = await signInThenFactor();
    const otherHtml = await other.factor.text();
    const mfatoken = /name="mfatoken" value="([^"]+)"/.exec(otherHtml)?.[1] ?? '';
    const recovered = await other.browser.follow(await other.browser.go(actionIn(otherHtml), { method: 'POST', form: { csrf: csrfIn(otherHtml), mfatoken, code: recoveryCodes[0] ?? '' } }));
    expect(recovered.url?.searchParams.get('code'), `consent given already: back to the app (${recovered.page?.status} ${await recovered.page?.text()})`).to.be.a('string');
    const third = await signInThenFactor();
    const thirdHtml = await third.factor.text();
    const spent = await third.browser.go(actionIn(thirdHtml), { method: 'POST', form: { csrf: csrfIn(thirdHtml), mfatoken: /name="mfatoken" value="([^"]+)"/.exec(thirdHtml)?.[1] ?? '', code: recoveryCodes[0] ?? '' } });
    expect(spent.status, 'a spent recovery code').to.equal(401);
  });

  it('device flow: a user_code and a verification_uri; the device polls authorization_pending until the person enters the code and signs in', async () => {
    const tv = await registerApp(service.dataDir, issuer, ['--name', 'Living-room TV', '--redirect-uri', APP, '--grant', 'device', '--public']);
    const started = await client.initiateDeviceAuthorization(tv.config, { scope: 'openid email' });
    expect(started.user_code).to.be.a('string');
    expect(started.verification_uri).to.equal(`${issuer}/oidc/device`);
    const poll = () => http(service.url, '/oidc/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code, client_id: tv.client_id }).toString() });
    const pending = await poll();
    expect([pending.status, pending.body.error]).to.deep.equal([400, 'authorization_pending']);
    // The person, on a phone: the code page (a labelled field), a wrong code, the right one, the confirmation, sign-in, consent.
    const phone = new Browser(issuer);
    const entry = await phone.go(started.verification_uri);
    const entryHtml = await entry.text();
    expect(entry.status).to.equal(200);
    expect(entryHtml).to.include('<label for="user_code">Code</label>').and.include('>Continue</button>').and.not.include('<script').and.not.include('onfocus');
    expect(entry.headers.get('content-security-policy')).to.include("frame-ancestors 'none'").and.not.include('unsafe-inline');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(entryHtml)?.[1] ?? '';
    const wrong = await phone.go(actionIn(entryHtml), { method: 'POST', form: { xsrf, user_code: 'BCDF-GHJK' } });
    const wrongHtml = await wrong.text();
    expect(wrongHtml).to.include('role="alert"').and.include('<label for="user_code">Code</label>');
    const forged = await phone.go(actionIn(wrongHtml), { method: 'POST', form: { user_code: started.user_code } });
    const forgedHtml = await forged.text();
    expect(forgedHtml, 'no xsrf token').to.include('role="alert"').and.not.include('on a device?');
    // Each page of code entry has its own token (the engine renews it): the latest page's goes on.
    const retry = /name="xsrf" value="([^"]+)"/.exec(forgedHtml)?.[1] ?? '';
    const confirm = await phone.go(actionIn(forgedHtml), { method: 'POST', form: { xsrf: retry, user_code: started.user_code } });
    const confirmHtml = await confirm.text();
    expect(confirmHtml, confirmHtml).to.include('Sign in to Living-room TV on a device?').and.include(started.user_code);
    const confirmAction = /<form id="op.deviceConfirmForm" method="post" action="([^"]+)"/.exec(confirmHtml)?.[1] ?? '';
    const hidden = Object.fromEntries([...confirmHtml.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((match) => [match[1] ?? '', match[2] ?? '']));
    const signIn = await phone.follow(await phone.go(confirmAction, { method: 'POST', form: hidden }));
    const signInHtml = await (signIn.page as Response).text();
    expect(/<h1>[^<]*/.exec(signInHtml)?.[0]).to.equal('<h1>Sign in');
    const consent = await phone.submit(signInHtml, { email, password: PASSWORD });
    const consentHtml = await (consent.page as Response).text();
    expect(/<h1>[^<]*/.exec(consentHtml)?.[0]).to.equal('<h1>Allow Living-room TV?');
    const done = await phone.submit(consentHtml, { decision: 'allow' });
    expect(await (done.page as Response).text()).to.include('<h1>Device signed in');
    const tokens = await client.pollDeviceAuthorizationGrant(tv.config, started);
    expect(tokens.claims()).to.include({ sub: userId, email, aud: tv.client_id });
    const again = await poll();
    expect(again.body.error, 'a device code is spent once').to.equal('invalid_grant');
  });

  /** A flow asking `offline_access` (with `prompt=consent`, as OpenID Connect requires), signed in and allowed: the consent page and the redirect back. */
  const offlineFlow = async (who = email, browser = new Browser(issuer)) => {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: APP, scope: 'openid offline_access', prompt: 'consent', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state });
    const first = await browser.follow(await browser.go(url.href));
    const html = await (first.page as Response).text();
    const consent = await browser.follow(await browser.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), email: who, password: PASSWORD } }));
    const consentHtml = await (consent.page as Response).text();
    const back = await browser.follow(await browser.go(actionIn(consentHtml), { method: 'POST', form: { csrf: csrfIn(consentHtml), decision: 'allow' } }));
    return { verifier, state, consentHtml, redirect: back.url as URL };
  };

  const introspect = async (token: string) =>
    (await http(service.url, '/oidc/token/introspection', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${credentials}` }, body: new URLSearchParams({ token }).toString() })).body as { active: boolean; sub?: string };

  /** What ends every session of an account, each as the account's owner (or the service) does it. */
  const enders: Record<string, (who: { email: string; access: string }) => Promise<number>> = {
    'a sign-out everywhere': async ({ access }) => (await postJson(service.url, '/auth/sign-out', { scope: 'global' }, bearer(access))).status,
    'a password change': async ({ access }) => (await postJson(service.url, '/auth/password', { currentpassword: PASSWORD, newpassword: 'a different passphrase 1843' }, bearer(access))).status,
    'a reset by the address owner': async ({ email: address }) => {
      await postJson(service.url, '/auth/password-reset', { email: address });
      return (await postJson(service.url, '/auth/password-reset/confirm', { token: await mailedToken(service, address, 'Reset your password'), newpassword: 'a different passphrase 1843' })).status;
    },
    'the account deleted': async ({ access }) => (await http(service.url, '/auth/me', { method: 'DELETE', body: { currentpassword: PASSWORD }, headers: { ...bearer(access), 'content-type': 'application/json' } })).status,
  };
  for (const [ender, end] of Object.entries(enders)) {
    it(`one account, one truth: ${ender} ends the provider's session, grants and tokens (introspection, refresh, userinfo)`, async () => {
      const address = `truth.${ender.replace(/\W+/g, '-')}@example.com`;
      const up = await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email: address, password: PASSWORD });
      const browser = new Browser(issuer);
      const { verifier, state, redirect } = await offlineFlow(address, browser);
      const tokens = await client.authorizationCodeGrant(config, redirect, { pkceCodeVerifier: verifier, expectedState: state });
      expect([(await introspect(tokens.access_token)).active, (await introspect(tokens.refresh_token as string)).active]).to.deep.equal([true, true]);
      const stranger = await registerApp(service.dataDir, issuer, ['--name', 'Stranger', '--redirect-uri', APP]);
      const strangers = Buffer.from(`${stranger.client_id}:${stranger.client_secret ?? ''}`).toString('base64');
      const seenByStranger = await http(service.url, '/oidc/token/introspection', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${strangers}` }, body: new URLSearchParams({ token: tokens.access_token }).toString() });
      expect(seenByStranger.body, "another app's token").to.deep.equal({ active: false });
      expect(await end({ email: address, access: up.body.data.accesstoken as string })).to.be.within(200, 204);
      expect([(await introspect(tokens.access_token)).active, (await introspect(tokens.refresh_token as string)).active], 'introspection').to.deep.equal([false, false]);
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string).catch((error: unknown) => error);
      expect((refreshed as { error?: string }).error, 'refresh').to.equal('invalid_grant');
      const info = await http(service.url, '/oidc/me', { headers: bearer(tokens.access_token) });
      expect(info.status, 'userinfo').to.equal(401);
      // The pages' session ended too: a silent request needs a sign-in again.
      const silent = client.buildAuthorizationUrl(config, { redirect_uri: APP, scope: 'openid', prompt: 'none', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st-ended' });
      expect((await browser.follow(await browser.go(silent.href))).url?.searchParams.get('error'), 'prompt=none').to.equal('login_required');
    });
  }

  it('refuses an exchange from another redirect URI or with a wrong verifier (invalid_grant)', async () => {
    const { verifier, consentHtml, redirect } = await offlineFlow();
    expect(consentHtml).to.include('Stay signed in when you are away');
    const exchange = (redirectUri: string, codeVerifier: string) =>
      http(service.url, '/oidc/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${credentials}` },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: redirect.searchParams.get('code') ?? '', redirect_uri: redirectUri, code_verifier: codeVerifier }).toString(),
      });
    const otherRedirect = await exchange('https://app.example.com/other', verifier);
    expect([otherRedirect.status, otherRedirect.body.error]).to.deep.equal([400, 'invalid_grant']);
    const wrongVerifier = await exchange(APP, client.randomPKCECodeVerifier());
    expect([wrongVerifier.status, wrongVerifier.body.error]).to.deep.equal([400, 'invalid_grant']);
  });

  it('issues a refresh token for offline_access, rotates it on each use, and ends the grant when an old one comes back', async () => {
    const { verifier, state, redirect } = await offlineFlow();
    const tokens = await client.authorizationCodeGrant(config, redirect, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.refresh_token).to.be.a('string');
    const rotated = await client.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(rotated.refresh_token).to.be.a('string').and.not.equal(tokens.refresh_token);
    expect(rotated.claims()?.sub).to.equal(userId);
    const reused = await client.refreshTokenGrant(config, tokens.refresh_token as string).catch((error: unknown) => error);
    expect((reused as { error?: string }).error).to.equal('invalid_grant');
    const afterReuse = await client.refreshTokenGrant(config, rotated.refresh_token as string).catch((error: unknown) => error);
    expect((afterReuse as { error?: string }).error, 'the grant ended with the reuse').to.equal('invalid_grant');
  });

  it('prompt=none: login_required without a session, a code with one; prompt=login and max_age ask the password again', async () => {
    const ask = async (browser: Browser, prompt: string) => {
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, { redirect_uri: APP, scope: 'openid', prompt, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: `st-${prompt}` });
      return browser.follow(await browser.go(url.href));
    };
    const stranger = await ask(new Browser(issuer), 'none');
    expect([stranger.url?.searchParams.get('error'), stranger.url?.searchParams.get('state')]).to.deep.equal(['login_required', 'st-none']);
    // A browser signed in at the pages; the account allowed the app in another browser (the first test): no consent.
    const browser = new Browser(issuer);
    const { page } = await start(browser, 'openid');
    const html = await page.text();
    const signedIn = await browser.follow(await browser.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), email, password: PASSWORD } }));
    expect([signedIn.page, typeof signedIn.url?.searchParams.get('code')], 'consent is the account\'s, not the browser\'s').to.deep.equal([null, 'string']);
    const silent = await ask(browser, 'none');
    expect([silent.page, typeof silent.url?.searchParams.get('code')]).to.deep.equal([null, 'string']);
    const again = await ask(browser, 'login');
    expect(again.page && /<h1>[^<]*/.exec(await again.page.text())?.[0]).to.equal('<h1>Sign in');
    // max_age: a sign-in older than it is asked again (0: always); a recent enough one is not.
    const aged = async (maxAge: number) => {
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, { redirect_uri: APP, scope: 'openid', max_age: String(maxAge), code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st-age' });
      return browser.follow(await browser.go(url.href));
    };
    const recent = await aged(3600);
    expect([recent.page, typeof recent.url?.searchParams.get('code')]).to.deep.equal([null, 'string']);
    const tooOld = await aged(0);
    expect(tooOld.page && /<h1>[^<]*/.exec(await tooOld.page.text())?.[0]).to.equal('<h1>Sign in');
  });

  it('RP-initiated logout: a confirmation page of its own, then back to the registered address; prompt=none then needs a sign-in', async () => {
    const SIGNED_OUT = 'https://app.example.com/signed-out';
    const made = JSON.parse((await admin(service.dataDir, ['create-client', '--name', 'Leaving', '--redirect-uri', APP, '--post-logout-redirect-uri', SIGNED_OUT, '--first-party'])).out[0] ?? '{}') as { client_id: string; client_secret: string };
    const app = await client.discovery(new URL(issuer), made.client_id, made.client_secret, undefined, { execute: [client.allowInsecureRequests] });
    const browser = new Browser(issuer);
    const flow = async (prompt?: string) => {
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(app, { redirect_uri: APP, scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st-out', ...(prompt === undefined ? {} : { prompt }) });
      return { verifier, outcome: await browser.follow(await browser.go(url.href)) };
    };
    const { verifier, outcome } = await flow();
    const html = await (outcome.page as Response).text();
    const signedIn = await browser.follow(await browser.go(actionIn(html), { method: 'POST', form: { csrf: csrfIn(html), email, password: PASSWORD } }));
    const tokens = await client.authorizationCodeGrant(app, signedIn.url as URL, { pkceCodeVerifier: verifier, expectedState: 'st-out' });
    const endSession = client.buildEndSessionUrl(app, { id_token_hint: tokens.id_token as string, post_logout_redirect_uri: SIGNED_OUT, state: 'bye' });
    const confirm = await browser.go(endSession.href);
    const confirmHtml = await confirm.text();
    expect(confirm.status).to.equal(200);
    expect(confirmHtml).to.include('<h1>Sign out?').and.include('>Sign out</button>').and.not.include('googleapis').and.not.include('<script');
    expect(confirm.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
    const formAction = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(confirmHtml)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirmHtml)?.[1] ?? '';
    const left = await browser.follow(await browser.go(formAction, { method: 'POST', form: { xsrf, logout: 'yes' } }));
    expect([`${left.url?.origin}${left.url?.pathname}`, left.url?.searchParams.get('state')]).to.deep.equal([SIGNED_OUT, 'bye']);
    const silent = await flow('none');
    expect(silent.outcome.url?.searchParams.get('error')).to.equal('login_required');
  });
});
