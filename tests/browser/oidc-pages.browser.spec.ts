import { chromiumOrSkip, launchChromium } from '../support/chromium.js';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import * as client from 'openid-client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { aSignUpBody } from '../support/builders.js';
import { postJson } from '../support/http-client.js';
import { freePort, registerApp } from '../support/oidc-browser.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { codeOf } from '../support/totp.js';
import { verifyByMail } from '../support/verify-by-mail.js';
import { axeAudit, axeViolations, tabTo } from '../support/page-audit.js';

const PASSWORD = 'difference engine 1822';
const WRONG = 'not the password at all';
const APP_NAME = 'Pages Notebook';
const TV_NAME = 'Living-room TV';
/** What a page may weigh in script, inline and fetched (these pages should have none). */
const SCRIPT_BUDGET_BYTES = 30 * 1024;

/** The page's side, as far as these tests reach into it (the tests compile without the DOM library). */
interface InPage {
  document: {
    activeElement: unknown;
    scripts: ArrayLike<{ src: string; text: string }>;
    addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string; blockedURI: string; sourceFile: string }) => void): void;
  };
  localStorage: { length: number };
  sessionStorage: { length: number };
  reportCspViolation(violation: string): void;
}

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
};

/** Does `act` (a form's submission) and waits for the page it leads to, at another address, to load. */
const leaving = async (page: Page, act: () => Promise<void>): Promise<void> => {
  const from = page.url();
  await Promise.all([page.waitForURL((url) => url.href !== from), act()]);
};

/** Does `act` (a form's submission) and waits for the next document to load, at whatever address (a form may post to its own). */
const loading = async (page: Page, act: () => Promise<void>): Promise<void> => {
  await Promise.all([page.waitForEvent('load'), act()]);
};

/** Types the e-mail address and the password into the sign-in page's fields, and tabs to *Sign in* (Enter or Space is the caller's). */
const signInByKeyboard = async (page: Page, email: string, password: string): Promise<void> => {
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(email);
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(password);
  await tabTo(page, page.getByRole('button', { name: 'Sign in' }));
};

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();

/**
 * A page in a normal context (under the pages' own CSP), watched: each request by origin (the service's kept, the
 * app's allowed, any other one counted), console errors, CSP violations, and each script's bytes. `servicePage` checks
 * one of the service's pages (its heading, its script weight, nothing in web storage) and returns its scripts;
 * `cookiesHold` checks the service's cookies (HttpOnly, SameSite Lax or Strict) and counts them.
 */
const watchedPage = async (context: BrowserContext, issuer: string, app: string) => {
  const page = await context.newPage();
  const elsewhere: string[] = [];
  const serviceUrls: string[] = [];
  const consoleErrors: string[] = [];
  const cspViolations: string[] = [];
  /** Each script's bytes, read once its response came (NaN where its body could not be read: over any budget). */
  const scriptBytes = new Map<string, Promise<number>>();
  context.on('request', (request) => {
    const { origin } = new URL(request.url());
    if (origin === issuer) serviceUrls.push(request.url());
    else if (origin !== app) elsewhere.push(request.url());
  });
  context.on('response', (response) => {
    if (response.request().resourceType() === 'script') scriptBytes.set(response.url(), response.body().then((body) => body.length, () => Number.NaN));
  });
  // Chromium logs a document's own 4xx as an error (a wrong password's 401, the error page's 400): those are
  // counted apart, and must be exactly the ones the flow expects; any other error is one.
  const documentStatuses: number[] = [];
  page.on('console', (message) => {
    const status = /^Failed to load resource: the server responded with a status of (\d+)/.exec(message.text())?.[1];
    if (message.type() !== 'error') return;
    if (status !== undefined && message.location().url === page.url()) documentStatuses.push(Number(status));
    else consoleErrors.push(`${page.url()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  // Through the DevTools protocol, which no CSP of the page governs.
  await context.exposeFunction('reportCspViolation', (violation: string) => cspViolations.push(violation));
  await context.addInitScript(() =>
    (globalThis as unknown as InPage).document.addEventListener('securitypolicyviolation', (event) => (globalThis as unknown as InPage).reportCspViolation(`${event.violatedDirective} blocked ${event.blockedURI} (${event.sourceFile})`)),
  );

  const pagesSeen: string[] = [];
  /** One of the service's pages: its heading, no more script than the budget, nothing kept in the browser's storage; its scripts' addresses ('inline' for one in the page) and their weight. */
  const servicePage = async (expectedHeading: string): Promise<{ scripts: string[]; weight: number }> => {
    expect(new URL(page.url()).origin, 'a page of the service').to.equal(issuer);
    expect(await heading(page), page.url()).to.equal(expectedHeading);
    const scripts = await page.evaluate(() => Array.from((globalThis as unknown as InPage).document.scripts, (script) => ({ src: script.src, inline: script.text.length })));
    let weight = 0;
    for (const script of scripts) weight += script.src === '' ? script.inline : await (scriptBytes.get(script.src) ?? expect.fail(`${page.url()}: no response seen for its script ${script.src}`));
    expect(weight, `${page.url()}: script bytes (${scripts.map((script) => script.src || 'inline').join(', ')})`).to.be.at.most(SCRIPT_BUDGET_BYTES);
    const stored = await page.evaluate(() => ({ localStorage: (globalThis as unknown as InPage).localStorage.length, sessionStorage: (globalThis as unknown as InPage).sessionStorage.length }));
    expect(stored, `${page.url()}: web storage`).to.deep.equal({ localStorage: 0, sessionStorage: 0 });
    pagesSeen.push(expectedHeading);
    return { scripts: scripts.map((script) => script.src || 'inline'), weight };
  };
  const cookiesHold = async (when: string) => {
    const cookies = await context.cookies(issuer);
    const loose = cookies.filter((cookie) => !cookie.httpOnly || !['Lax', 'Strict'].includes(cookie.sameSite));
    expect(loose.map((cookie) => `${cookie.name}: httpOnly ${cookie.httpOnly}, SameSite ${cookie.sameSite}`), `${when}: the service's cookies`).to.deep.equal([]);
    return cookies.length;
  };
  /** Nothing went elsewhere, no console error, no CSP violation. */
  const clean = () => {
    expect(elsewhere, 'requests to an origin other than the service and the app').to.deep.equal([]);
    expect(consoleErrors, 'console errors').to.deep.equal([]);
    expect(cspViolations, 'CSP violations').to.deep.equal([]);
  };
  return { page, serviceUrls, documentStatuses, pagesSeen, servicePage, cookiesHold, clean };
};

/** The service's addresses that carry a token, a code or a password: a parameter by such a name, any JWT, or one of `secrets`. */
const leakingUrls = (urls: readonly string[], secrets: readonly (string | null | undefined)[]): string[] =>
  urls.filter((url) => {
    const parsed = new URL(url);
    const named = ['access_token', 'id_token', 'id_token_hint', 'refresh_token', 'code', 'password', 'mfatoken'].some((name) => parsed.searchParams.has(name));
    return named || /eyJ[\w-]+\.eyJ[\w-]+\./.test(url) || secrets.some((secret) => typeof secret === 'string' && secret !== '' && (url.includes(secret) || url.includes(encodeURIComponent(secret))));
  });

type Json = Record<string, unknown>;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Runs in the page, as tests/browser/passkeys.browser.spec.ts registers a passkey: the registration options (bearer,
 * `currentpassword`) from the service, `navigator.credentials.create`, and the credential as JSON.
 */
const createPasskey = async (input: { api: string; token: string; password: string }): Promise<{ credential: Json | null; error: string | null }> => {
  try {
    const headers = { authorization: `Bearer ${input.token}`, 'content-type': 'application/json' };
    const answer = await fetch(`${input.api}/auth/passkeys/registration-options`, { method: 'POST', headers, body: JSON.stringify({ currentpassword: input.password }) });
    const options = ((await answer.json()) as { data: Json }).data;
    // The page's WebAuthn API (the tests compile without the DOM library).
    const page = globalThis as unknown as {
      navigator: { credentials: { create(init: unknown): Promise<{ toJSON(): Json }> } };
      PublicKeyCredential: { parseCreationOptionsFromJSON(json: unknown): unknown };
    };
    const credential = await page.navigator.credentials.create({ publicKey: page.PublicKeyCredential.parseCreationOptionsFromJSON(options) });
    return { credential: credential.toJSON(), error: null };
  } catch (error) {
    return { credential: null, error: String(error) };
  }
};

describe('Browser (Chromium): the OpenID provider pages, for people (axe-core, keyboard only, strict CSP, privacy)', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;
  let service: TestService | undefined;
  let issuer = '';
  let app = '';
  let config: client.Configuration;
  let tv: Awaited<ReturnType<typeof registerApp>>;
  let userId = '';
  const email = `pages-${Date.now()}@example.com`;
  /** An account with a second factor (TOTP), confirmed with the code of its enrolment's step. */
  const factorEmail = `pages-factor-${Date.now()}@example.com`;
  let factorSecret = '';
  /** What the app received: each request's path and query. */
  const received: URL[] = [];
  const appServer = createServer((request, response) => {
    received.push(new URL(request.url ?? '/', app));
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html lang="en"><title>app</title><p>ok</p></html>');
  });

  before(async function () {
    if (!chromiumOrSkip(this)) return;
    app = `http://127.0.0.1:${await listen(appServer)}`;
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    // The app is at its own origin (PUBLIC_APP_URL): passkeys are its, not the pages' (their test below says otherwise).
    service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer, PUBLIC_APP_URL: app, RATE_LIMIT_MAX: '10000' });
    const signedUp = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password: PASSWORD }));
    expect(signedUp.status, signedUp.text).to.equal(201);
    userId = signedUp.body.data.user.id;
    // The second factor, enrolled over the API as tests/http/oidc-flow.http.spec.ts does (the holder proved first).
    const factorUp = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: factorEmail, password: PASSWORD }));
    expect(factorUp.status, factorUp.text).to.equal(201);
    await verifyByMail(service, factorEmail);
    const enrolment = await postJson(service.url, '/auth/mfa/totp', { currentpassword: PASSWORD }, bearer(factorUp.body.data.accesstoken));
    expect(enrolment.status, enrolment.text).to.equal(200);
    factorSecret = enrolment.body.data.secret;
    const confirmed = await postJson(service.url, '/auth/mfa/totp/confirm', { code: codeOf(factorSecret, new Date()) }, bearer(factorUp.body.data.accesstoken));
    expect(confirmed.status, confirmed.text).to.equal(200);
    ({ config } = await registerApp(service.dataDir, issuer, ['--name', APP_NAME, '--redirect-uri', `${app}/callback`, '--post-logout-redirect-uri', `${app}/signed-out`]));
    tv = await registerApp(service.dataDir, issuer, ['--name', TV_NAME, '--redirect-uri', `${app}/callback`, '--grant', 'device', '--public']);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await service?.dispose();
    if (appServer.listening) await new Promise((done) => appServer.close(done));
  });

  /** An authorization request as an app (`config`'s) makes it: PKCE (S256), state, nonce. */
  const authorization = async (scope = 'openid email profile', as = config) => {
    const verifier = client.randomPKCECodeVerifier();
    const checks = { verifier, state: client.randomState(), nonce: client.randomNonce() };
    const url = client.buildAuthorizationUrl(as, {
      redirect_uri: `${app}/callback`,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
    return { url: url.href, checks };
  };
  /** What the app last received at `path` (the browser asks it for more, its icon). */
  const lastAt = (path: string): URL => received.filter((url) => url.pathname === path).at(-1) ?? expect.fail(`the app received nothing at ${path}`);
  const atApp = (path: string) => (url: URL) => url.origin === app && url.pathname === path;
  /** A six-digit code that is none of the authenticator's codes from the step before to two steps on. */
  const wrongCodeOf = (secret: string): string => {
    const near = [-1, 0, 1, 2].map((steps) => codeOf(secret, new Date(), steps));
    return ['000000', '111111', '222222', '333333', '444444'].find((code) => !near.includes(code)) ?? expect.fail('no wrong code');
  };
  /** A code of the device flow's alphabet and shape that is not `userCode`. */
  const wrongUserCodeOf = (userCode: string): string => (userCode === 'BCDF-GHJK' ? 'BCDF-GHJL' : 'BCDF-GHJK');

  describe('axe-core finds no serious or critical violation (a context that bypasses the CSP, for the audit script only)', () => {
    let context: BrowserContext;
    let page: Page;
    beforeEach(async () => {
      context = await browser!.newContext({ bypassCSP: true });
      page = await context.newPage();
    });
    afterEach(async () => context.close());

    const signIn = async (password: string, who = email) => {
      await page.getByLabel('Email').fill(who);
      await page.getByLabel('Password').fill(password);
      await leaving(page, () => page.getByRole('button', { name: 'Sign in' }).click());
    };
    const audited = async (expectedHeading: string) => {
      expect(await heading(page)).to.equal(expectedHeading);
      const violations = await axeViolations(page);
      expect(violations, `${page.url()}:\n${violations.join('\n')}`).to.deep.equal([]);
    };

    it('the sign-in page', async () => {
      await page.goto((await authorization()).url);
      await audited('Sign in');
    });

    it('the sign-in page after a wrong password, which says so in an alert', async () => {
      await page.goto((await authorization()).url);
      await signIn(WRONG);
      expect(await page.getByRole('alert').innerText()).to.equal('Wrong e-mail or password.');
      await audited('Sign in');
    });

    it('the consent page', async () => {
      await page.goto((await authorization()).url);
      await signIn(PASSWORD);
      await audited(`Allow ${APP_NAME}?`);
    });

    it('the sign-out confirmation page and the signed-out page', async () => {
      await page.goto((await authorization()).url);
      await signIn(PASSWORD);
      await page.goto(client.buildEndSessionUrl(config, {}).href);
      await audited('Sign out?');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/session/end/success'));
      await audited('Signed out');
    });

    it('the error page (an unknown client_id)', async () => {
      const url = new URL((await authorization()).url);
      url.searchParams.set('client_id', 'no-such-app');
      const response = await page.goto(url.href);
      expect(response?.status()).to.equal(400);
      await audited('This sign-in cannot go on');
    });

    it('the second-factor page, and after a wrong code, which says so in an alert', async () => {
      await page.goto((await authorization()).url);
      await signIn(PASSWORD, factorEmail);
      await audited('Two-step verification');
      await page.getByLabel('Code').fill(wrongCodeOf(factorSecret));
      await loading(page, () => page.getByRole('button', { name: 'Verify' }).click());
      expect(await page.getByRole('alert').innerText()).to.equal('That code is not right, or was used already.');
      await audited('Two-step verification');
    });

    it('the device flow pages: the code (and after a wrong one, its alert), the confirmation, the device signed in', async () => {
      const started = await client.initiateDeviceAuthorization(tv.config, { scope: 'openid email' });
      await page.goto(started.verification_uri);
      await audited('Sign in on a device');
      await page.getByLabel('Code').fill(wrongUserCodeOf(started.user_code));
      await loading(page, () => page.getByRole('button', { name: 'Continue' }).click());
      expect(await page.getByRole('alert').innerText()).to.equal('That code is not right, or it expired. Check the device and try again.');
      await audited('Sign in on a device');
      await page.getByLabel('Code').fill(started.user_code);
      await loading(page, () => page.getByRole('button', { name: 'Continue' }).click());
      await audited(`Sign in to ${TV_NAME} on a device?`);
      await loading(page, () => page.getByRole('button', { name: 'Continue' }).click());
      await signIn(PASSWORD);
      await leaving(page, () => page.getByRole('button', { name: 'Allow' }).click());
      await audited('Device signed in');
    });
  });

  it('keyboard only, under the pages’ own CSP: sign-in (a wrong password first), deny, allow, sign-out; nothing leaks, nothing elsewhere', async () => {
    const context = await browser!.newContext();
    try {
      const { page, serviceUrls, documentStatuses, pagesSeen, servicePage, cookiesHold, clean } = await watchedPage(context, issuer, app);

      // Sign-in: a wrong password first (the alert), then the right one, by keyboard; Enter on *Sign in*.
      const first = await authorization();
      await page.goto(first.url);
      await servicePage('Sign in');
      await signInByKeyboard(page, email, WRONG);
      await leaving(page, () => page.keyboard.press('Enter'));
      await servicePage('Sign in');
      expect(await page.getByRole('alert').innerText()).to.equal('Wrong e-mail or password.');
      await signInByKeyboard(page, email, PASSWORD);
      await leaving(page, () => page.keyboard.press('Enter'));
      await servicePage(`Allow ${APP_NAME}?`);
      expect(await cookiesHold('signed in'), 'a session cookie').to.be.greaterThan(0);
      // Deny (Enter): the app hears access_denied, with its state and the issuer.
      await tabTo(page, page.getByRole('button', { name: 'Deny' }));
      await Promise.all([page.waitForURL(atApp('/callback')), page.keyboard.press('Enter')]);
      const denied = lastAt('/callback').searchParams;
      expect([denied.get('error'), denied.get('state'), denied.get('iss'), denied.has('code')]).to.deep.equal(['access_denied', first.checks.state, issuer, false]);

      // Again, signed in: the consent page; Allow (Space): the app gets a code, its state and the issuer.
      const second = await authorization();
      await page.goto(second.url);
      await servicePage(`Allow ${APP_NAME}?`);
      await tabTo(page, page.getByRole('button', { name: 'Allow' }));
      await Promise.all([page.waitForURL(atApp('/callback')), page.keyboard.press('Space')]);
      const back = lastAt('/callback');
      expect(back.searchParams.get('code'), 'code').to.be.a('string').and.not.equal('');
      expect([back.searchParams.get('state'), back.searchParams.get('iss')]).to.deep.equal([second.checks.state, issuer]);
      const tokens = await client.authorizationCodeGrant(config, back, { pkceCodeVerifier: second.checks.verifier, expectedState: second.checks.state, expectedNonce: second.checks.nonce });
      expect(tokens.claims()?.['email']).to.equal(email);
      await cookiesHold('after the code');

      // RP-initiated logout with nowhere to go back to: the confirmation, Enter on *Sign out*, the signed-out page.
      await page.goto(client.buildEndSessionUrl(config, {}).href);
      await servicePage('Sign out?');
      await tabTo(page, page.getByRole('button', { name: 'Sign out' }));
      await Promise.all([page.waitForURL((url) => url.pathname.endsWith('/session/end/success')), page.keyboard.press('Enter')]);
      await servicePage('Signed out');

      // Signed in again (the sign-in page, Enter; the consent page, Space on *Allow*), then signed out back to the app
      // (Space on *Sign out*): the redirects after the pages' forms are not blocked by their policy.
      const third = await authorization('openid');
      await page.goto(third.url);
      await servicePage('Sign in');
      await signInByKeyboard(page, email, PASSWORD);
      await leaving(page, () => page.keyboard.press('Enter'));
      await servicePage(`Allow ${APP_NAME}?`);
      await tabTo(page, page.getByRole('button', { name: 'Allow' }));
      await Promise.all([page.waitForURL(atApp('/callback')), page.keyboard.press('Space')]);
      expect([lastAt('/callback').searchParams.get('state'), lastAt('/callback').searchParams.has('code')]).to.deep.equal([third.checks.state, true]);
      await page.goto(client.buildEndSessionUrl(config, { post_logout_redirect_uri: `${app}/signed-out`, state: 'bye' }).href);
      await servicePage('Sign out?');
      await tabTo(page, page.getByRole('button', { name: 'Sign out' }));
      await Promise.all([page.waitForURL(atApp('/signed-out')), page.keyboard.press('Space')]);
      expect(lastAt('/signed-out').searchParams.get('state')).to.equal('bye');

      // The error page: an unknown app.
      const unknown = new URL((await authorization()).url);
      unknown.searchParams.set('client_id', 'no-such-app');
      expect((await page.goto(unknown.href))?.status()).to.equal(400);
      await servicePage('This sign-in cannot go on');
      await cookiesHold('at the end');

      const [signIn, consent, signOut] = ['Sign in', `Allow ${APP_NAME}?`, 'Sign out?'];
      expect(pagesSeen).to.deep.equal([signIn, signIn, consent, consent, signOut, 'Signed out', signIn, consent, signOut, 'This sign-in cannot go on']);
      clean();
      expect(documentStatuses, "the pages' own statuses Chromium logs: the wrong password, the unknown app").to.deep.equal([401, 400]);
      // No token, code or password in an address of the service: the tokens the code bought, any JWT, any parameter by those names.
      expect(serviceUrls.length, 'the service was visited').to.be.greaterThan(5);
      expect(leakingUrls(serviceUrls, [tokens.access_token, tokens.id_token, tokens.refresh_token, back.searchParams.get('code'), PASSWORD, WRONG]), 'service addresses with a token or a password').to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('keyboard only, under the pages’ own CSP: the second factor (Code, Verify; a wrong code first, its alert), consent; the ID token’s amr is ["pwd","otp"]', async () => {
    const context = await browser!.newContext();
    try {
      const { page, serviceUrls, documentStatuses, pagesSeen, servicePage, cookiesHold, clean } = await watchedPage(context, issuer, app);
      const flow = await authorization();
      await page.goto(flow.url);
      await servicePage('Sign in');
      await signInByKeyboard(page, factorEmail, PASSWORD);
      await leaving(page, () => page.keyboard.press('Enter'));
      await servicePage('Two-step verification');
      // A wrong code (Enter on *Verify*): the same page again, with its alert.
      const wrong = wrongCodeOf(factorSecret);
      await tabTo(page, page.getByLabel('Code'));
      await page.keyboard.type(wrong);
      await tabTo(page, page.getByRole('button', { name: 'Verify' }));
      await loading(page, () => page.keyboard.press('Enter'));
      await servicePage('Two-step verification');
      expect(await page.getByRole('alert').innerText()).to.equal('That code is not right, or was used already.');
      // The next step's code (the enrolment spent this one's), Space on *Verify*: the consent page, then the app.
      const right = codeOf(factorSecret, new Date(), 1);
      await tabTo(page, page.getByLabel('Code'));
      await page.keyboard.type(right);
      await tabTo(page, page.getByRole('button', { name: 'Verify' }));
      await loading(page, () => page.keyboard.press('Space'));
      await servicePage(`Allow ${APP_NAME}?`);
      await tabTo(page, page.getByRole('button', { name: 'Allow' }));
      await Promise.all([page.waitForURL(atApp('/callback')), page.keyboard.press('Enter')]);
      const back = lastAt('/callback');
      expect([back.searchParams.get('state'), back.searchParams.get('iss')]).to.deep.equal([flow.checks.state, issuer]);
      const tokens = await client.authorizationCodeGrant(config, back, { pkceCodeVerifier: flow.checks.verifier, expectedState: flow.checks.state, expectedNonce: flow.checks.nonce });
      expect(tokens.claims()?.['email']).to.equal(factorEmail);
      expect(tokens.claims()?.['amr']).to.deep.equal(['pwd', 'otp']);
      expect(await cookiesHold('signed in with both factors'), 'a session cookie').to.be.greaterThan(0);

      expect(pagesSeen).to.deep.equal(['Sign in', 'Two-step verification', 'Two-step verification', `Allow ${APP_NAME}?`]);
      clean();
      expect(documentStatuses, "the pages' own statuses Chromium logs: the wrong code").to.deep.equal([401]);
      expect(leakingUrls(serviceUrls, [tokens.access_token, tokens.id_token, back.searchParams.get('code'), PASSWORD, right, wrong]), 'service addresses with a token, a code or a password').to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('keyboard only, under the pages’ own CSP: the device flow (Code, Continue; a wrong code first), its confirmation (Continue, Cancel), sign-in, consent, done; the device polls tokens for the account', async () => {
    const started = await client.initiateDeviceAuthorization(tv.config, { scope: 'openid email' });
    expect(started.verification_uri).to.equal(`${issuer}/oidc/device`);
    const context = await browser!.newContext();
    try {
      const { page, serviceUrls, documentStatuses, pagesSeen, servicePage, cookiesHold, clean } = await watchedPage(context, issuer, app);
      await page.goto(started.verification_uri);
      await servicePage('Sign in on a device');
      // A wrong code (Enter on *Continue*): the same page again, with its alert.
      await tabTo(page, page.getByLabel('Code'));
      await page.keyboard.type(wrongUserCodeOf(started.user_code));
      await tabTo(page, page.getByRole('button', { name: 'Continue' }));
      await loading(page, () => page.keyboard.press('Enter'));
      await servicePage('Sign in on a device');
      expect(await page.getByRole('alert').innerText()).to.equal('That code is not right, or it expired. Check the device and try again.');
      // The device's code: the confirmation shows it, with *Continue* then *Cancel* in the keyboard's order.
      await tabTo(page, page.getByLabel('Code'));
      await page.keyboard.type(started.user_code);
      await tabTo(page, page.getByRole('button', { name: 'Continue' }));
      await loading(page, () => page.keyboard.press('Space'));
      await servicePage(`Sign in to ${TV_NAME} on a device?`);
      expect(await page.locator('main strong').innerText(), 'the code shown to compare').to.equal(started.user_code);
      await tabTo(page, page.getByRole('button', { name: 'Continue' }));
      await page.keyboard.press('Tab');
      expect(await page.getByRole('button', { name: 'Cancel' }).evaluate((element) => element === (globalThis as unknown as InPage).document.activeElement), 'Tab after Continue: Cancel').to.equal(true);
      await page.keyboard.press('Shift+Tab');
      await loading(page, () => page.keyboard.press('Enter'));
      // Signed in (Enter), allowed (Enter): the device signed in.
      await servicePage('Sign in');
      await signInByKeyboard(page, email, PASSWORD);
      await leaving(page, () => page.keyboard.press('Enter'));
      await servicePage(`Allow ${TV_NAME}?`);
      await tabTo(page, page.getByRole('button', { name: 'Allow' }));
      await leaving(page, () => page.keyboard.press('Enter'));
      await servicePage('Device signed in');
      await cookiesHold('the device signed in');

      const tokens = await client.pollDeviceAuthorizationGrant(tv.config, started);
      expect(tokens.claims()).to.include({ iss: issuer, sub: userId, email, aud: tv.client_id });
      expect(pagesSeen).to.deep.equal(['Sign in on a device', 'Sign in on a device', `Sign in to ${TV_NAME} on a device?`, 'Sign in', `Allow ${TV_NAME}?`, 'Device signed in']);
      clean();
      expect(documentStatuses, "the pages' own statuses Chromium logs").to.deep.equal([]);
      expect(leakingUrls(serviceUrls, [tokens.access_token, tokens.id_token, started.device_code, started.user_code, PASSWORD]), 'service addresses with a token, a code or a password').to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  /** A service of its own for the tests below (settings of its start differ; `env` from its issuer), with the app registered: its issuer and the app's configuration. */
  const anotherService = async (host: 'localhost' | '127.0.0.1', env: (issuer: string) => Record<string, string>) => {
    const port = await freePort();
    const at = `http://${host}:${port}`;
    const started = await startTestService({ PORT: String(port), PUBLIC_API_URL: at, PUBLIC_APP_URL: app, RATE_LIMIT_MAX: '10000', ...env(at) });
    const registered = await registerApp(started.dataDir, at, ['--name', APP_NAME, '--redirect-uri', `${app}/callback`]);
    return { service: started, issuer: at, config: registered.config };
  };

  describe('sign in with a passkey at the pages (the issuer http://localhost:…, WEBAUTHN_RP_ID=localhost, its origin one of WEBAUTHN_ORIGINS)', () => {
    let other: Awaited<ReturnType<typeof anotherService>>;
    const passkeyEmail = `pages-passkey-${Date.now()}@example.com`;
    let token = '';
    before(async () => {
      other = await anotherService('localhost', (at) => ({ WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: at }));
      const signedUp = await postJson(other.service.url, '/auth/sign-up', aSignUpBody({ email: passkeyEmail, password: PASSWORD }));
      expect(signedUp.status, signedUp.text).to.equal(201);
      token = signedUp.body.data.accesstoken;
      await verifyByMail(other.service, passkeyEmail);
    });
    after(async () => other?.service.dispose());
    const passkeyButton = (page: Page) => page.getByRole('button', { name: 'Sign in with a passkey' });

    it('axe-core: the sign-in page with its passkey button, shown by its script (a context that bypasses the CSP, for the audit script only)', async () => {
      const context = await browser!.newContext({ bypassCSP: true });
      try {
        const page = await context.newPage();
        await page.goto((await authorization('openid email profile', other.config)).url);
        expect(await heading(page)).to.equal('Sign in');
        expect(await passkeyButton(page).isVisible(), 'the passkey button').to.equal(true);
        const violations = await axeViolations(page);
        expect(violations, `${page.url()}:\n${violations.join('\n')}`).to.deep.equal([]);
      } finally {
        await context.close();
      }
    });

    it('keyboard only, under the pages’ own CSP, with a virtual authenticator: Enter on *Sign in with a passkey*, consent, the app; amr ["webauthn"]; one small script', async () => {
      const context = await browser!.newContext();
      try {
        const { page, serviceUrls, documentStatuses, pagesSeen, servicePage, clean } = await watchedPage(context, other.issuer, app);
        const cdp = await context.newCDPSession(page);
        await cdp.send('WebAuthn.enable');
        const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
          options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
        });
        // Registered as tests/browser/passkeys.browser.spec.ts does it, over the API from a page of the issuer's origin (the sign-in page).
        await page.goto((await authorization('openid email profile', other.config)).url);
        await servicePage('Sign in');
        const created = await page.evaluate(createPasskey, { api: other.issuer, token, password: PASSWORD });
        expect(created.error, 'the registration in the page').to.equal(null);
        const added = await postJson(other.service.url, '/auth/passkeys', { response: created.credential, name: 'Laptop' }, bearer(token));
        expect([added.status, added.body.message], added.text).to.deep.equal([201, 'Passkey added']);
        const signCount = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.map((credential) => credential.signCount);
        const registered = await signCount();
        expect(registered, 'one credential on the authenticator').to.have.length(1);

        // A sign-in: the page's one script (the service's own, within the budget) shows the button; Enter on it; the authenticator answers.
        const flow = await authorization('openid email profile', other.config);
        await page.goto(flow.url);
        const { scripts, weight } = await servicePage('Sign in');
        expect(scripts, "the sign-in page's scripts").to.deep.equal([`${other.issuer}/oidc/assets/passkey.js`]);
        expect(weight, 'passkey.js, measured').to.be.greaterThan(0);
        expect(await passkeyButton(page).isVisible(), 'the passkey button, shown by its script').to.equal(true);
        await tabTo(page, passkeyButton(page));
        await leaving(page, () => page.keyboard.press('Enter'));
        await servicePage(`Allow ${APP_NAME}?`);
        expect((await signCount())[0], 'the authenticator signed').to.be.greaterThan(registered[0] ?? Number.POSITIVE_INFINITY);
        await tabTo(page, page.getByRole('button', { name: 'Allow' }));
        await Promise.all([page.waitForURL(atApp('/callback')), page.keyboard.press('Enter')]);
        const back = lastAt('/callback');
        expect([back.searchParams.get('state'), back.searchParams.get('iss')]).to.deep.equal([flow.checks.state, other.issuer]);
        const tokens = await client.authorizationCodeGrant(other.config, back, { pkceCodeVerifier: flow.checks.verifier, expectedState: flow.checks.state, expectedNonce: flow.checks.nonce });
        expect(tokens.claims()?.['email']).to.equal(passkeyEmail);
        expect(tokens.claims()?.['amr']).to.deep.equal(['webauthn']);

        expect(pagesSeen).to.deep.equal(['Sign in', 'Sign in', `Allow ${APP_NAME}?`]);
        clean();
        expect(documentStatuses, "the pages' own statuses Chromium logs").to.deep.equal([]);
        expect(leakingUrls(serviceUrls, [tokens.access_token, tokens.id_token, back.searchParams.get('code'), token, PASSWORD]), 'service addresses with a token or a password').to.deep.equal([]);
      } finally {
        await context.close();
      }
    });
  });

  describe('a branded start (PAGES_NAME, PAGES_ACCENT_COLOR, PAGES_LOGO_URL a data: image)', () => {
    const BRAND = 'Lovelace Library';
    const ACCENT = '#6a1b9a';
    const logo = `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40"><circle cx="20" cy="20" r="18" fill="${ACCENT}"/></svg>`).toString('base64')}`;
    let other: Awaited<ReturnType<typeof anotherService>>;
    before(async () => {
      other = await anotherService('127.0.0.1', () => ({ PAGES_NAME: BRAND, PAGES_ACCENT_COLOR: ACCENT, PAGES_LOGO_URL: logo }));
    });
    after(async () => other?.service.dispose());
    /** The page shows the brand: its name in the header and the title, the accent on *Sign in*, the logo drawn. */
    const branded = async (page: Page) => {
      expect([await page.locator('header').innerText(), await page.title()]).to.deep.equal([BRAND, `Sign in to ${APP_NAME} · ${BRAND}`]);
      expect(await page.getByRole('button', { name: 'Sign in' }).evaluate((element) => (globalThis as unknown as { getComputedStyle(element: unknown): { backgroundColor: string } }).getComputedStyle(element).backgroundColor)).to.equal('rgb(106, 27, 154)');
      expect(await page.locator('header img').evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth), 'the logo, drawn').to.equal(40);
    };

    it('axe-core: the sign-in page, colour contrast among the rules that passed (a context that bypasses the CSP, for the audit script only)', async () => {
      const context = await browser!.newContext({ bypassCSP: true });
      try {
        const page = await context.newPage();
        await page.goto((await authorization('openid email profile', other.config)).url);
        expect(await heading(page)).to.equal('Sign in');
        await branded(page);
        const { violations, passed } = await axeAudit(page);
        expect(violations, `${page.url()}:\n${violations.join('\n')}`).to.deep.equal([]);
        expect(passed, 'axe-core rules that passed').to.include('color-contrast');
      } finally {
        await context.close();
      }
    });

    it('under the pages’ own CSP: the logo shows, no request leaves, no console error, no CSP violation; Tab reaches the fields and *Sign in*', async () => {
      const context = await browser!.newContext();
      try {
        const { page, documentStatuses, servicePage, clean } = await watchedPage(context, other.issuer, app);
        await page.goto((await authorization('openid email profile', other.config)).url);
        expect((await servicePage('Sign in')).scripts, 'no script').to.deep.equal([]);
        await branded(page);
        await signInByKeyboard(page, email, PASSWORD);
        clean();
        expect(documentStatuses).to.deep.equal([]);
      } finally {
        await context.close();
      }
    });
  });
});
