import { existsSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import axe from 'axe-core';
import { expect } from 'chai';
import * as client from 'openid-client';
import { type Browser, type BrowserContext, type Locator, type Page, chromium } from 'playwright-core';
import { aSignUpBody } from '../support/builders.js';
import { postJson } from '../support/http-client.js';
import { freePort, registerApp } from '../support/oidc-browser.js';
import { type TestService, startTestService } from '../support/test-service.js';

/** Debian's Chromium; CHROMIUM_PATH points elsewhere (a missing path shows the skip). */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-proxy-server'];
const PASSWORD = 'difference engine 1822';
const WRONG = 'not the password at all';
const APP_NAME = 'Pages Notebook';
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
  axe: typeof axe;
  reportCspViolation(violation: string): void;
}

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
};

/** The serious and critical axe-core violations of the page, one line each (rule, impact, what, where). */
const axeViolations = async (page: Page): Promise<string[]> => {
  await page.addScriptTag({ content: axe.source });
  const results = await page.evaluate(() => (globalThis as unknown as InPage).axe.run((globalThis as unknown as InPage).document as never, { resultTypes: ['violations'] }));
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
};

/** Does `act` (a form's submission) and waits for the page it leads to, at another address, to load. */
const leaving = async (page: Page, act: () => Promise<void>): Promise<void> => {
  const from = page.url();
  await Promise.all([page.waitForURL((url) => url.href !== from), act()]);
};

/** Presses Tab until `target` has the focus (at most `presses` times): the keyboard reaches it in the page's order. */
const tabTo = async (page: Page, target: Locator, presses = 12): Promise<void> => {
  for (let pressed = 0; pressed < presses; pressed += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === (globalThis as unknown as InPage).document.activeElement)) return;
  }
  expect.fail(`${String(target)}: not reached by ${presses} presses of Tab`);
};

describe('Browser (Chromium): the OpenID provider pages, for people (axe-core, keyboard only, strict CSP, privacy)', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;
  let service: TestService | undefined;
  let issuer = '';
  let app = '';
  let config: client.Configuration;
  const email = `pages-${Date.now()}@example.com`;
  /** What the app received: each request's path and query. */
  const received: URL[] = [];
  const appServer = createServer((request, response) => {
    received.push(new URL(request.url ?? '/', app));
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html lang="en"><title>app</title><p>ok</p></html>');
  });

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      (this.test?.parent as (Mocha.Suite & { skipReason?: string }) | undefined)!.skipReason = `no Chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;
      this.skip();
    }
    app = `http://127.0.0.1:${await listen(appServer)}`;
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer, RATE_LIMIT_MAX: '10000' });
    const signedUp = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email, password: PASSWORD }));
    expect(signedUp.status, signedUp.text).to.equal(201);
    ({ config } = await registerApp(service.dataDir, issuer, ['--name', APP_NAME, '--redirect-uri', `${app}/callback`, '--post-logout-redirect-uri', `${app}/signed-out`]));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  });

  after(async () => {
    await browser?.close();
    await service?.dispose();
    if (appServer.listening) await new Promise((done) => appServer.close(done));
  });

  /** An authorization request as an app makes it: PKCE (S256), state, nonce. */
  const authorization = async (scope = 'openid email profile') => {
    const verifier = client.randomPKCECodeVerifier();
    const checks = { verifier, state: client.randomState(), nonce: client.randomNonce() };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: `${app}/callback`,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
    return { url: url.href, checks };
  };
  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();
  /** What the app last received at `path` (the browser asks it for more, its icon). */
  const lastAt = (path: string): URL => received.filter((url) => url.pathname === path).at(-1) ?? expect.fail(`the app received nothing at ${path}`);
  const atApp = (path: string) => (url: URL) => url.origin === app && url.pathname === path;

  describe('axe-core finds no serious or critical violation (a context that bypasses the CSP, for the audit script only)', () => {
    let context: BrowserContext;
    let page: Page;
    beforeEach(async () => {
      context = await browser!.newContext({ bypassCSP: true });
      page = await context.newPage();
    });
    afterEach(async () => context.close());

    const signIn = async (password: string) => {
      await page.getByLabel('Email').fill(email);
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
  });

  it('keyboard only, under the pages’ own CSP: sign-in (a wrong password first), deny, allow, sign-out; nothing leaks, nothing elsewhere', async () => {
    const context = await browser!.newContext();
    try {
      const page = await context.newPage();
      const elsewhere: string[] = [];
      const serviceUrls: string[] = [];
      const consoleErrors: string[] = [];
      const cspViolations: string[] = [];
      const scriptBytes = new Map<string, number>();
      context.on('request', (request) => {
        const { origin } = new URL(request.url());
        if (origin === issuer) serviceUrls.push(request.url());
        else if (origin !== app) elsewhere.push(request.url());
      });
      context.on('response', async (response) => {
        if (response.request().resourceType() === 'script') scriptBytes.set(response.url(), (await response.body().catch(() => Buffer.alloc(0))).length);
      });
      // Chromium logs a document's own 4xx as an error (the wrong password's 401, the error page's 400): those are
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
      /** One of the service's pages: its heading, no script to speak of, nothing kept in the browser's storage. */
      const servicePage = async (expectedHeading: string) => {
        expect(new URL(page.url()).origin, 'a page of the service').to.equal(issuer);
        expect(await heading(page), page.url()).to.equal(expectedHeading);
        const scripts = await page.evaluate(() => Array.from((globalThis as unknown as InPage).document.scripts, (script) => ({ src: script.src, inline: script.text.length })));
        const weight = scripts.reduce((sum, script) => sum + (script.src === '' ? script.inline : (scriptBytes.get(script.src) ?? 0)), 0);
        expect(weight, `${page.url()}: script bytes (${scripts.map((script) => script.src || 'inline').join(', ')})`).to.be.at.most(SCRIPT_BUDGET_BYTES);
        const stored = await page.evaluate(() => ({ localStorage: (globalThis as unknown as InPage).localStorage.length, sessionStorage: (globalThis as unknown as InPage).sessionStorage.length }));
        expect(stored, `${page.url()}: web storage`).to.deep.equal({ localStorage: 0, sessionStorage: 0 });
        pagesSeen.push(expectedHeading);
      };
      const cookiesHold = async (when: string) => {
        const cookies = await context.cookies(issuer);
        const loose = cookies.filter((cookie) => !cookie.httpOnly || !['Lax', 'Strict'].includes(cookie.sameSite));
        expect(loose.map((cookie) => `${cookie.name}: httpOnly ${cookie.httpOnly}, SameSite ${cookie.sameSite}`), `${when}: the service's cookies`).to.deep.equal([]);
        return cookies.length;
      };
      const signInByKeyboard = async (password: string) => {
        await tabTo(page, page.getByLabel('Email'));
        await page.keyboard.type(email);
        await tabTo(page, page.getByLabel('Password'));
        await page.keyboard.type(password);
        await tabTo(page, page.getByRole('button', { name: 'Sign in' }));
      };

      // Sign-in: a wrong password first (the alert), then the right one, by keyboard; Enter on *Sign in*.
      const first = await authorization();
      await page.goto(first.url);
      await servicePage('Sign in');
      await signInByKeyboard(WRONG);
      await leaving(page, () => page.keyboard.press('Enter'));
      await servicePage('Sign in');
      expect(await page.getByRole('alert').innerText()).to.equal('Wrong e-mail or password.');
      await signInByKeyboard(PASSWORD);
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
      await signInByKeyboard(PASSWORD);
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
      expect(elsewhere, 'requests to an origin other than the service and the app').to.deep.equal([]);
      expect(consoleErrors, 'console errors').to.deep.equal([]);
      expect(documentStatuses, "the pages' own statuses Chromium logs: the wrong password, the unknown app").to.deep.equal([401, 400]);
      expect(cspViolations, 'CSP violations').to.deep.equal([]);
      // No token, code or password in an address of the service: the tokens the code bought, any JWT, any parameter by those names.
      const secrets = [tokens.access_token, tokens.id_token, tokens.refresh_token, back.searchParams.get('code'), PASSWORD, encodeURIComponent(PASSWORD), WRONG, encodeURIComponent(WRONG)];
      const leaking = serviceUrls.filter((url) => {
        const parsed = new URL(url);
        const named = ['access_token', 'id_token', 'id_token_hint', 'refresh_token', 'code', 'password'].some((name) => parsed.searchParams.has(name));
        return named || /eyJ[\w-]+\.eyJ[\w-]+\./.test(url) || secrets.some((secret) => typeof secret === 'string' && secret !== '' && url.includes(secret));
      });
      expect(serviceUrls.length, 'the service was visited').to.be.greaterThan(5);
      expect(leaking, 'service addresses with a token or a password').to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
