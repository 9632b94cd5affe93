import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, Locator, Page } from 'playwright-core';
import { ERROR_TABLE } from '../../src/interfaces/http/shared/error-table.js';
import { admin, apiKeyFor } from '../support/api-keys.js';
import { chromiumOrSkip, launchChromium } from '../support/chromium.js';
import { http, postJson } from '../support/http-client.js';
import { freePort } from '../support/oidc-browser.js';
import { axeViolations, tabTo } from '../support/page-audit.js';
import { keepSettledScreenshot } from '../support/screenshots.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { codeOf } from '../support/totp.js';
import { verifyByMail } from '../support/verify-by-mail.js';
import { passwordSignIn, signInPageShown, watchedPage } from '../support/console-browser.js';

const PASSWORD = 'difference engine 1822';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'docs', 'images', 'admin-console');
/** The service's clock starts here (the screenshots' times come from it); it only moves forward. */
const BASE = Date.parse('2025-03-14T09:00:00Z');
/** Where the screenshots' test sets the clock, whatever ran before it (the others move it by minutes at most). */
const SCREENSHOT_TIME = BASE + 24 * 3600_000;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The page's side, as far as these tests reach into it (the tests compile without the DOM library). */
interface InPage {
  localStorage: { length: number; key(index: number): string | null; getItem(key: string): string | null };
  sessionStorage: { length: number; key(index: number): string | null; getItem(key: string): string | null };
}

describe('Browser (Chromium): the admin console at /console/ (issue 65), for operators signed in with a second factor', function () {
  this.timeout(120_000);
  let service: TestService;
  let browser: Browser;
  let issuer = '';
  let reader = '';
  let current = new Date(BASE);
  /** Moves the service's clock on (30 s: a new step of the authenticator app's codes). */
  const tick = (ms: number) => void (current = new Date(current.getTime() + ms));
  /** The operator: the role granted, an authenticator app set up. */
  const operator = { email: 'operator.ada@example.com', id: '', secret: '' };

  /** A fresh account (its address proven), its sign-up's session ended. */
  const account = async (email: string, name = 'Ada', lastname = 'Lovelace'): Promise<string> => {
    const up = await postJson(service.url, '/auth/sign-up', { name, lastname, email, password: PASSWORD });
    expect(up.status, up.text).to.equal(201);
    expect((await postJson(service.url, '/auth/sign-out', { scope: 'local' }, bearer(up.body.data.accesstoken as string))).status).to.be.within(200, 204);
    tick(1000);
    await verifyByMail(service, email);
    tick(1000);
    return up.body.data.user.id as string;
  };
  const apiSignIn = async (email: string, headers: Record<string, string> = {}): Promise<string> => {
    const signedIn = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD }, headers);
    expect(signedIn.status, signedIn.text).to.equal(201);
    return signedIn.body.data.accesstoken as string;
  };
  /** Sets up an authenticator app for `email` through the API (its password, then a code): the secret. */
  const enrolTotp = async (email: string): Promise<string> => {
    const token = await apiSignIn(email);
    const enrolment = await postJson(service.url, '/auth/mfa/totp', { currentpassword: PASSWORD }, bearer(token));
    expect(enrolment.status, enrolment.text).to.equal(200);
    const secret = enrolment.body.data.secret as string;
    const confirmed = await postJson(service.url, '/auth/mfa/totp/confirm', { code: codeOf(secret, current) }, bearer(token));
    expect(confirmed.status, confirmed.text).to.equal(200);
    // The code's step is spent: the next sign-in's code is the next step's.
    tick(30_000);
    return secret;
  };
  const grantOperator = async (email: string) => expect((await admin(service.dataDir, ['grant-operator', email])).code).to.equal(0);
  const me = (token: string) => http(service.url, '/auth/me', { method: 'GET', headers: bearer(token) });
  const adminRead = (id: string) => http(service.url, `/admin/users/${id}`, { method: 'GET', headers: bearer(reader) });

  before(async function () {
    if (!chromiumOrSkip(this)) return;
    const port = await freePort();
    issuer = `http://localhost:${port}`;
    service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer, RATE_LIMIT_MAX: '10000' }, { clock: { now: () => current } });
    browser = await launchChromium();
    reader = (await apiKeyFor(service.dataDir, 'users:read')).key;
    operator.id = await account(operator.email);
    operator.secret = await enrolTotp(operator.email);
    await grantOperator(operator.email);
  });
  after(async () => {
    await browser?.close();
    await service?.dispose();
  });

  /** A context as the screenshots want it, watched (tests/support/console-browser.ts). */
  const open = (options: { bypassCSP?: boolean } = {}) =>
    watchedPage(browser, issuer, { viewport: { width: 1000, height: 800 }, locale: 'en-GB', timezoneId: 'UTC', colorScheme: 'light', bypassCSP: options.bypassCSP ?? false });
  const signInPage = signInPageShown;
  const consoleShown = (page: Page) => page.locator('#console:not([hidden])').waitFor();
  /** Signs in with the password alone at the provider's page (reached from `path`), back at `path`. */
  const passwordOnlySignIn = (page: Page, email: string, path = '/console/') => passwordSignIn(page, issuer, path, email, PASSWORD);
  /** The operator signs in at the provider's pages (the password, then *Code*, *Verify*), back at `path` with the console shown. */
  const operatorSignIn = async (page: Page, path = '/console/') => {
    await page.goto(`${issuer}${path}`);
    await signInPage(page);
    await page.getByLabel('Email').fill(operator.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Code').waitFor();
    tick(30_000);
    await page.getByLabel('Code').fill(codeOf(operator.secret, current));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${issuer}${path}`);
    await consoleShown(page);
  };
  /** The search page shown, what it first lists read (every account, in the order they were made: the operator's first). */
  const searchReady = async (page: Page) => {
    await consoleShown(page);
    await page.locator('#section-search:not([hidden])').waitFor();
    await page.locator('#search-list li').first().waitFor();
  };
  /** The account page shown, its activity read. */
  const accountReady = async (page: Page) => {
    await consoleShown(page);
    await page.locator('#section-account:not([hidden])').waitFor();
    await page.locator('#account-activity li').first().waitFor();
  };
  /** Waits for the status line `#{id}-status` to say `text`, with `role` (a refusal is an alert); fails with what it says instead. */
  const says = async (page: Page, id: string, text: string, role: 'status' | 'alert' = 'status'): Promise<void> => {
    const line = page.locator(`#${id}-status`);
    await line.filter({ hasText: text }).waitFor({ timeout: 5000 }).catch(async () => expect.fail(`#${id}-status says "${await line.textContent()}", not "${text}"`));
    expect([await line.textContent(), await line.getAttribute('role')]).to.deep.equal([text, role]);
  };
  /** Every entry of the page's localStorage and sessionStorage. */
  const storageOf = (page: Page) =>
    page.evaluate(() => {
      const { localStorage, sessionStorage } = globalThis as unknown as InPage;
      return [localStorage, sessionStorage].map((storage) => Array.from({ length: storage.length }, (_, index) => [storage.key(index) ?? '', storage.getItem(storage.key(index) ?? '') ?? '']));
    });
  const facts = (page: Page) => page.locator('#account-facts li').allTextContents();
  const activity = (page: Page) => page.locator('#account-activity li strong').allTextContents();
  /** The API's 403s are printed by Chromium as console errors: those alone are expected. */
  const besides403 = (problems: string[]) => problems.filter((problem) => !/status of 403/.test(problem));

  it('an account that is no operator reads the API\'s refusal, no search form; an operator signed in with a password alone is asked to sign in again', async () => {
    await account('someone.else@example.com', 'Charles', 'Babbage');
    const { context, page, problems } = await open();
    await passwordOnlySignIn(page, 'someone.else@example.com');
    const banner = page.locator('#console-status');
    await banner.filter({ hasText: /\S/ }).filter({ hasNotText: 'Signing you in…' }).waitFor();
    expect([await banner.textContent(), await banner.getAttribute('role')]).to.deep.equal([`${ERROR_TABLE.NOT_AN_OPERATOR.message}: the admin console is for accounts that hold the operator role.`, 'alert']);
    expect(await page.locator('#search-form').isVisible(), 'no search form').to.equal(false);
    expect(await page.locator('#console').isHidden()).to.equal(true);
    expect(await page.getByRole('button', { name: 'Sign in' }).count(), 'signing in again changes nothing: no button').to.equal(0);
    expect(besides403(problems)).to.deep.equal([]);
    await context.close();

    // An operator whose sign-in had one factor: the API's message, and *Sign in* (the provider's page, asked again).
    await account('operator.nofactor@example.com', 'Grace', 'Hopper');
    await grantOperator('operator.nofactor@example.com');
    const second = await open();
    await passwordOnlySignIn(second.page, 'operator.nofactor@example.com');
    const asked = second.page.locator('#console-status');
    await asked.getByRole('button', { name: 'Sign in' }).waitFor();
    expect([await asked.textContent(), await asked.getAttribute('role')]).to.deep.equal([
      `${ERROR_TABLE.SECOND_FACTOR_REQUIRED.message}: sign in again with your authenticator app's code or a passkey. None yet? First set one up in your account. Sign in`,
      'alert',
    ]);
    expect(await asked.getByRole('link', { name: 'set one up in your account' }).getAttribute('href')).to.equal('/account/two-factor');
    expect(await second.page.locator('#search-form').isVisible(), 'no search form').to.equal(false);
    await asked.getByRole('button', { name: 'Sign in' }).click();
    await signInPage(second.page);
    expect(besides403(second.problems)).to.deep.equal([]);
    await second.context.close();
  });

  it('an operator signs in with the code, finds accounts by the start of their address (keyboard only) and opens one in place', async () => {
    await account('target.grace@example.com', 'Grace', 'Hopper');
    const alan = await account('target.alan@example.com', 'Alan', 'Turing');
    await account('other.target@example.com', 'Kurt', 'Gödel');
    const { context, page, problems } = await open();
    await operatorSignIn(page);
    await searchReady(page);
    expect(page.url(), 'no code or state left in the address').to.equal(`${issuer}/console/`);
    const [local, session] = await storageOf(page);
    expect([local, session], 'nothing in storage (the PKCE verifier and state spent)').to.deep.equal([[], []]);

    await tabTo(page, page.getByLabel('Address starts with'), 20);
    await page.keyboard.type('target.');
    await page.keyboard.press('Enter');
    await says(page, 'search', '2 accounts.');
    const links = page.locator('#search-list li a');
    expect(await links.allTextContents(), 'in the order they were made; not other.target, the operator or anyone else').to.deep.equal(['target.grace@example.com', 'target.alan@example.com']);
    expect(await page.locator('#search-list li').allTextContents()).to.deep.equal(['target.grace@example.com · Grace Hopper', 'target.alan@example.com · Alan Turing']);

    await tabTo(page, page.getByLabel('Address starts with'), 20);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('nobody.');
    await page.keyboard.press('Enter');
    await says(page, 'search', 'No account starts with that address.');
    expect(await links.count()).to.equal(0);
    await page.getByLabel('Address starts with').fill('target.');
    await page.keyboard.press('Enter');
    await says(page, 'search', '2 accounts.');

    // The link opens the account's page in place: the token in memory serves it, no sign-in, no document loaded.
    const documents: string[] = [];
    page.on('request', (request) => void ((request.resourceType() === 'document' || new URL(request.url()).pathname.startsWith('/oidc/')) && documents.push(request.url())));
    await tabTo(page, page.getByRole('link', { name: 'target.alan@example.com' }), 20);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${issuer}/console/accounts/${alan}`);
    await accountReady(page);
    expect(await page.getByRole('heading', { level: 1 }).filter({ visible: true }).textContent()).to.equal('target.alan@example.com');
    expect(await facts(page)).to.deep.equal(['Name: Alan Turing', 'Address confirmed', 'Enabled', 'Second factor: none']);
    expect(documents, 'no new sign-in').to.deep.equal([]);
    // Back to the search: in place too.
    await page.goBack();
    await page.waitForURL(`${issuer}/console/`);
    await page.locator('#section-search:not([hidden])').waitFor();
    expect(documents, 'no new sign-in').to.deep.equal([]);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('Back and Forward show the account of the address each time, and its buttons act on that one', async () => {
    const first = await account('history.first@example.com', 'Mary', 'Somerville');
    const second = await account('history.second@example.com', 'Emmy', 'Noether');
    const { context, page, problems } = await open();
    await operatorSignIn(page);
    await searchReady(page);
    const heading = () => page.getByRole('heading', { level: 1 }).filter({ visible: true }).textContent();
    const search = async () => {
      await page.getByLabel('Address starts with').fill('history.');
      await page.getByRole('button', { name: 'Search' }).click();
      await says(page, 'search', '2 accounts.');
    };
    await search();
    await page.getByRole('link', { name: 'history.first@example.com' }).click();
    await page.waitForURL(`${issuer}/console/accounts/${first}`);
    await accountReady(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Search' }).click();
    await page.waitForURL(`${issuer}/console/`);
    await search();
    await page.getByRole('link', { name: 'history.second@example.com' }).click();
    await page.waitForURL(`${issuer}/console/accounts/${second}`);
    await page.getByRole('heading', { name: 'history.second@example.com' }).waitFor();
    expect(await heading()).to.equal('history.second@example.com');

    await page.goBack();
    await page.waitForURL(`${issuer}/console/`);
    await page.goBack();
    await page.waitForURL(`${issuer}/console/accounts/${first}`);
    await page.locator('#section-account:not([hidden])').waitFor();
    await page.getByRole('heading', { name: 'history.first@example.com' }).waitFor({ timeout: 5000 }).catch(() => undefined);
    expect(await heading(), 'the account of the address, not the one shown before').to.equal('history.first@example.com');
    tick(60_000);
    await page.getByRole('button', { name: 'Disable' }).click();
    await says(page, 'account', 'Disabled: every session ended, and it cannot sign in.');
    expect([(await adminRead(first)).body.data.user.disabled, (await adminRead(second)).body.data.user.disabled]).to.deep.equal([true, false]);
    expect(await facts(page)).to.include('Disabled: it cannot sign in');

    await page.goForward();
    await page.waitForURL(`${issuer}/console/`);
    await page.goForward();
    await page.waitForURL(`${issuer}/console/accounts/${second}`);
    await page.getByRole('heading', { name: 'history.second@example.com' }).waitFor({ timeout: 5000 }).catch(() => undefined);
    expect(await heading()).to.equal('history.second@example.com');
    expect(await facts(page)).to.include('Enabled');
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('an account\'s page: Disable, Enable, Sign out everywhere, Remove second factor, each one call, the operator named in its activity; Delete only with the address typed', async () => {
    const email = 'target.hedy@example.com';
    const id = await account(email, 'Hedy', 'Lamarr');
    const before = await apiSignIn(email);
    const { context, page, problems } = await open();
    const deletes: string[] = [];
    page.on('request', (request) => void (request.method() === 'DELETE' && deletes.push(new URL(request.url()).pathname)));
    await operatorSignIn(page, `/console/accounts/${id}`);
    await accountReady(page);
    expect(await page.getByRole('heading', { level: 1 }).filter({ visible: true }).textContent()).to.equal(email);
    expect([await page.getByRole('button', { name: 'Disable' }).isVisible(), await page.getByRole('button', { name: 'Enable' }).isVisible()]).to.deep.equal([true, false]);
    expect(await page.getByRole('button', { name: 'Remove second factor' }).isVisible(), 'no factor to remove').to.equal(false);

    tick(60_000);
    await page.getByRole('button', { name: 'Disable' }).click();
    await says(page, 'account', 'Disabled: every session ended, and it cannot sign in.');
    expect((await me(before)).status, 'its session ended').to.equal(401);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).status, 'no sign-in').to.be.within(400, 499);
    expect(await facts(page)).to.include('Disabled: it cannot sign in');
    expect([await page.getByRole('button', { name: 'Disable' }).isVisible(), await page.getByRole('button', { name: 'Enable' }).isVisible()]).to.deep.equal([false, true]);

    tick(60_000);
    await page.getByRole('button', { name: 'Enable' }).click();
    await says(page, 'account', 'Enabled: it can sign in again.');
    expect(await facts(page)).to.include('Enabled');
    expect([await page.getByRole('button', { name: 'Disable' }).isVisible(), await page.getByRole('button', { name: 'Enable' }).isVisible()]).to.deep.equal([true, false]);
    tick(60_000);
    const after = await apiSignIn(email, { 'user-agent': IPHONE });

    tick(60_000);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await says(page, 'account', 'Every session of the account is ended.');
    expect((await me(after)).status, 'its session ended').to.equal(401);
    expect(await page.locator('#account-sessions li').allTextContents()).to.deep.equal(['No live session.']);

    // A second factor set up by its owner: shown on the page opened again, then removed.
    tick(60_000);
    await enrolTotp(email);
    expect((await adminRead(id)).body.data.secondfactor.enrolled).to.equal(true);
    await page.goto(`${issuer}/console/accounts/${id}`);
    await page.waitForURL(`${issuer}/console/accounts/${id}`);
    await accountReady(page);
    expect(await facts(page)).to.include('Second factor: an authenticator app (10 recovery codes left)');
    tick(60_000);
    await page.getByRole('button', { name: 'Remove second factor' }).click();
    await says(page, 'account', 'The second factor is removed: the password alone signs in.');
    expect((await adminRead(id)).body.data.secondfactor.enrolled).to.equal(false);
    expect(await facts(page)).to.include('Second factor: none');
    expect(await page.getByRole('button', { name: 'Remove second factor' }).isVisible()).to.equal(false);

    const byOperator = (await activity(page)).filter((entry) => entry.endsWith(`, by ${operator.email}`));
    expect(byOperator.map((entry) => entry.slice(0, -`, by ${operator.email}`.length)), 'newest first').to.deep.equal(['Second factor removed', 'Every session ended (admin)', 'Account enabled', 'Every session ended (admin)', 'Account disabled']);
    expect((await activity(page)).filter((entry) => entry.includes('administrator')), 'the operator named, not "an administrator"').to.deep.equal([]);

    // Delete: a wrong address is refused on the page, no call made.
    const form = page.locator('#account-delete-form');
    await form.getByLabel("Type the account's address to confirm").fill('target.hedy@example.org');
    await form.getByRole('button', { name: 'Delete' }).click();
    await says(page, 'account-delete', "Type the account's address exactly to confirm.", 'alert');
    expect(deletes, 'no DELETE but the second factor\'s').to.deep.equal([`/admin/users/${id}/mfa`]);
    expect((await adminRead(id)).status, 'the account is still there').to.equal(200);
    await form.getByLabel("Type the account's address to confirm").fill(email);
    await form.getByRole('button', { name: 'Delete' }).click();
    await says(page, 'account-delete', `The account ${email} is deleted.`);
    expect(deletes).to.deep.equal([`/admin/users/${id}/mfa`, `/admin/users/${id}`]);
    const gone = await adminRead(id);
    expect([gone.status, gone.body.code]).to.deep.equal([404, 'USER_NOT_FOUND']);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('every admin page: its CSP, no serious axe-core violation, each reached and used by keyboard, no token in storage', async () => {
    const id = await account('audit.target@example.com', 'Ada', 'Byron');
    for (const path of ['/console/', `/console/accounts/${id}`]) {
      const served = await fetch(`${issuer}${path}`);
      expect(served.status, path).to.equal(200);
      expect(served.headers.get('content-security-policy'), path).to.include("script-src 'self'").and.include("frame-ancestors 'none'").and.not.include('unsafe-inline');
    }
    const moved = await fetch(`${issuer}/console`, { redirect: 'manual' });
    expect([moved.status, moved.headers.get('location')]).to.deep.equal([308, '/console/']);

    const audited = await open({ bypassCSP: true });
    await operatorSignIn(audited.page);
    await searchReady(audited.page);
    const failures: string[] = [];
    const audit = async (name: string) => {
      const violations = await axeViolations(audited.page);
      if (violations.length > 0) failures.push(`${name}:\n${violations.join('\n')}`);
    };
    await audit('search (as it opens)');
    await audited.page.getByLabel('Address starts with').fill('audit.');
    await audited.page.getByRole('button', { name: 'Search' }).click();
    await says(audited.page, 'search', '1 account.');
    await audit('search (a result listed)');
    await audited.page.getByRole('link', { name: 'audit.target@example.com' }).click();
    await accountReady(audited.page);
    await audit('account');
    await audited.page.getByRole('button', { name: 'Disable' }).click();
    await says(audited.page, 'account', 'Disabled: every session ended, and it cannot sign in.');
    await audit('account (disabled, its status said)');
    expect(failures).to.deep.equal([]);
    await audited.context.close();

    // Keyboard only, under the CSP: the search, a result, the account's controls, the menu back.
    const { context, page, problems } = await open();
    await operatorSignIn(page);
    await searchReady(page);
    const [local, session] = await storageOf(page);
    expect([...(local ?? []), ...(session ?? [])].flat().filter((value) => value.includes('eyJ')), 'no token in storage').to.deep.equal([]);
    expect([local, session]).to.deep.equal([[], []]);
    await tabTo(page, page.getByLabel('Address starts with'), 20);
    await page.keyboard.type('audit.');
    await tabTo(page, page.getByRole('button', { name: 'Search' }));
    await page.keyboard.press('Enter');
    await says(page, 'search', '1 account.');
    await tabTo(page, page.getByRole('link', { name: 'audit.target@example.com' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${issuer}/console/accounts/${id}`);
    await accountReady(page);
    for (const control of [page.getByRole('button', { name: 'Enable' }), page.getByRole('button', { name: 'Sign out everywhere' }), page.getByLabel("Type the account's address to confirm"), page.getByRole('button', { name: 'Delete' }), page.getByRole('button', { name: 'Sign out of this device' })]) {
      await tabTo(page, control, 40);
    }
    await page.getByRole('button', { name: 'Enable' }).focus();
    await page.keyboard.press('Enter');
    await says(page, 'account', 'Enabled: it can sign in again.');
    expect((await adminRead(id)).body.data.user.disabled).to.equal(false);
    await page.keyboard.press('Shift+Tab');
    await page.locator('body').focus();
    await tabTo(page, page.getByRole('link', { name: 'Search' }), 40);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${issuer}/console/`);
    await page.locator('#section-search:not([hidden])').waitFor();
    const [localAfter, sessionAfter] = await storageOf(page);
    expect([localAfter, sessionAfter]).to.deep.equal([[], []]);
    // Sign out of this device: the provider asks *Sign out?*, its session ends too, and the console asks a sign-in again.
    await tabTo(page, page.getByRole('button', { name: 'Sign out of this device' }), 40);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/oidc/session/end');
    await tabTo(page, page.getByRole('button', { name: 'Sign out', exact: true }));
    await page.keyboard.press('Enter');
    await signInPage(page);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('screenshots for docs/admin-console.md (deterministic: the service\'s clock)', async () => {
    expect(current.getTime(), 'the tests before stay before the screenshots\' time').to.be.below(SCREENSHOT_TIME);
    current = new Date(SCREENSHOT_TIME);
    mkdirSync(SCREENSHOTS, { recursive: true });
    const shoot = (page: Page, slug: string, mask: Locator[] = []) => keepSettledScreenshot(page, join(SCREENSHOTS, `${slug}.png`), mask);
    const email = 'shown.grace@example.com';
    const id = await account(email, 'Grace', 'Hopper');
    await account('shown.alan@example.com', 'Alan', 'Turing');
    tick(60_000);
    await apiSignIn(email, { 'user-agent': IPHONE });
    tick(60_000);
    await postJson(service.url, '/auth/sign-in', { email, password: 'not the password' });
    tick(60_000);

    const someone = await open();
    await account('shown.charles@example.com', 'Charles', 'Babbage');
    await passwordOnlySignIn(someone.page, 'shown.charles@example.com');
    await someone.page.locator('#console-status', { hasText: ERROR_TABLE.NOT_AN_OPERATOR.message }).waitFor();
    await shoot(someone.page, 'not-an-operator');
    expect(besides403(someone.problems)).to.deep.equal([]);
    await someone.context.close();

    const { context, page, problems } = await open();
    await operatorSignIn(page, `/console/accounts/${id}`);
    await accountReady(page);
    tick(60_000);
    await page.getByRole('button', { name: 'Disable' }).click();
    await says(page, 'account', 'Disabled: every session ended, and it cannot sign in.');
    tick(60_000);
    await page.getByRole('button', { name: 'Enable' }).click();
    await says(page, 'account', 'Enabled: it can sign in again.');
    tick(60_000);
    await apiSignIn(email, { 'user-agent': IPHONE });
    tick(60_000);
    await page.goto(`${issuer}/console/accounts/${id}`);
    await accountReady(page);
    await shoot(page, 'account');

    await page.goto(`${issuer}/console/`);
    await searchReady(page);
    await page.getByLabel('Address starts with').fill('shown.');
    await page.getByRole('button', { name: 'Search' }).click();
    await says(page, 'search', '3 accounts.');
    await shoot(page, 'search');
    expect(problems).to.deep.equal([]);
    await context.close();
  });
});
