import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { keepSettledScreenshot } from '../support/screenshots.js';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { chromiumOrSkip, launchChromium } from '../support/chromium.js';
import { http, postJson } from '../support/http-client.js';
import { freePort } from '../support/oidc-browser.js';
import { axeViolations, tabTo } from '../support/page-audit.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { codeOf } from '../support/totp.js';
import { verifyByMail } from '../support/verify-by-mail.js';
import { passwordSignIn, signInPageShown, watchedPage } from '../support/console-browser.js';

const PASSWORD = 'difference engine 1822';
const NEW_PASSWORD = 'a brand new passphrase 1815';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'docs', 'images', 'account-console');
const SLUGS = ['profile', 'sessions', 'password', 'two-factor', 'passkeys', 'connected', 'activity', 'export', 'delete'] as const;
type Slug = (typeof SLUGS)[number];
const NAMES: Record<Slug, string> = {
  profile: 'Profile',
  sessions: 'Sessions',
  password: 'Password',
  'two-factor': 'Two-factor',
  passkeys: 'Passkeys',
  connected: 'Connected accounts',
  activity: 'Activity',
  export: 'Export',
  delete: 'Delete account',
};
/** The service's clock starts here (the screenshots' times come from it); it only moves forward. */
const BASE = Date.parse('2025-03-14T09:00:00Z');
/** Where the screenshots' test sets the clock, whatever ran before it (the others move it by minutes at most). */
const SCREENSHOT_TIME = BASE + 24 * 3600_000;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The page's side, as far as these tests reach into it (the tests compile without the DOM library). */
interface InPage {
  location: { href: string };
  localStorage: { length: number; key(index: number): string | null; getItem(key: string): string | null };
  sessionStorage: { length: number; key(index: number): string | null; getItem(key: string): string | null };
}

describe('Browser (Chromium): the account console at /account (issue 65), signed in at the service\'s own provider', function () {
  this.timeout(90_000);
  let service: TestService;
  let browser: Browser;
  let issuer = '';
  let current = new Date(BASE);
  /** Moves the service's clock on (30 s: a new step of the authenticator app's codes). */
  const tick = (ms: number) => void (current = new Date(current.getTime() + ms));

  before(async function () {
    if (!chromiumOrSkip(this)) return;
    const port = await freePort();
    // localhost, not 127.0.0.1: WebAuthn refuses an IP address as relying party. PUBLIC_APP_URL unset.
    issuer = `http://localhost:${port}`;
    service = await startTestService(
      { PORT: String(port), PUBLIC_API_URL: issuer, RATE_LIMIT_MAX: '10000', WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: issuer },
      { clock: { now: () => current } },
    );
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await service?.dispose();
  });

  /** A fresh account (its address proven): `console.{slug}@example.com`, Ada Lovelace. */
  const account = async (slug: string): Promise<string> => {
    const email = `console.${slug}@example.com`;
    const up = await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email, password: PASSWORD });
    expect(up.status, up.text).to.equal(201);
    // The sign-up's own session ends: the console's lists show only what a test makes.
    expect((await postJson(service.url, '/auth/sign-out', { scope: 'local' }, bearer(up.body.data.accesstoken as string))).status).to.be.within(200, 204);
    tick(1000);
    await verifyByMail(service, email);
    tick(1000);
    return email;
  };
  const apiSignIn = async (email: string, password = PASSWORD, headers: Record<string, string> = {}): Promise<string> => {
    const signedIn = await postJson(service.url, '/auth/sign-in', { email, password }, headers);
    expect(signedIn.status, signedIn.text).to.equal(201);
    return signedIn.body.data.accesstoken as string;
  };
  const me = (token: string) => http(service.url, '/auth/me', { method: 'GET', headers: bearer(token) });

  /** A context as the screenshots want it, watched (tests/support/console-browser.ts). */
  const open = (options: { bypassCSP?: boolean } = {}) =>
    watchedPage(browser, issuer, { viewport: { width: 1000, height: 800 }, locale: 'en-GB', timezoneId: 'UTC', colorScheme: 'light', bypassCSP: options.bypassCSP ?? false });
  const signInPage = signInPageShown;
  const consoleShown = (page: Page) => page.locator('#console:not([hidden])').waitFor();
  /** Signs in at the provider's page (reached from `path`), back at `path` with the console shown. */
  const signIn = async (page: Page, email: string, path = '/account/profile', password = PASSWORD) => {
    await passwordSignIn(page, issuer, path, email, password);
    await consoleShown(page);
  };
  /** The section `slug` shown, with what its script reads from the API in it. */
  const ready = async (page: Page, slug: Slug) => {
    await consoleShown(page);
    await page.locator(`#section-${slug}:not([hidden])`).waitFor();
    const filled: Partial<Record<Slug, string>> = {
      profile: '#profile-email:not(:empty)',
      sessions: '#sessions-list li',
      'two-factor': '#totp-state:not(:empty)',
      passkeys: '#passkeys-list li',
      activity: '#activity-list li',
    };
    const selector = filled[slug];
    if (selector !== undefined) await page.locator(selector).first().waitFor();
  };
  const visit = async (page: Page, slug: Slug) => {
    await page.goto(`${issuer}/account/${slug}`);
    await page.waitForURL(`${issuer}/account/${slug}`);
    await ready(page, slug);
  };
  const section = (page: Page, slug: Slug): Locator => page.locator(`#section-${slug}`);
  const statusOf = (page: Page, id: string): Locator => page.locator(`#${id}-status`);
  /** What the form's status line says once it is done (`role` its kind: a refusal is an alert). */
  const saidIn = async (page: Page, id: string, role: 'status' | 'alert' = 'status'): Promise<string> => {
    const line = statusOf(page, id);
    await line.filter({ hasText: /^(?!Working…)\S/ }).waitFor();
    const said = (await line.textContent()) ?? '';
    expect(await line.getAttribute('role'), said).to.equal(role);
    return said;
  };
  /** Waits for the status line to say `text` (a status, not an alert); fails with what it says instead. */
  const says = async (page: Page, id: string, text: string): Promise<void> => {
    const line = statusOf(page, id);
    await line.filter({ hasText: text }).waitFor({ timeout: 5000 }).catch(async () => expect.fail(`#${id}-status says "${await line.textContent()}", not "${text}"`));
    expect([await line.textContent(), await line.getAttribute('role')]).to.deep.equal([text, 'status']);
  };
  /** Every entry of the page's localStorage and sessionStorage. */
  const storageOf = (page: Page) =>
    page.evaluate(() => {
      const { localStorage, sessionStorage } = globalThis as unknown as InPage;
      return [localStorage, sessionStorage].map((storage) => Array.from({ length: storage.length }, (_, index) => [storage.key(index) ?? '', storage.getItem(storage.key(index) ?? '') ?? '']));
    });
  const virtualAuthenticator = async (context: BrowserContext, page: Page) => {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
  };

  it('an unsigned visitor signs in by keyboard at the provider\'s page and is back at the page asked, the token in memory only; a second visit goes straight in', async () => {
    const email = await account('first-visit');
    const served = await fetch(`${issuer}/account/sessions`);
    expect(served.status).to.equal(200);
    expect(served.headers.get('content-security-policy')).to.include("script-src 'self'").and.include("frame-ancestors 'none'").and.not.include('unsafe-inline');
    const { context, page, problems } = await open();
    const documents: string[] = [];
    page.on('framenavigated', (frame) => void (frame === page.mainFrame() && documents.push(new URL(frame.url()).pathname)));
    await page.goto(`${issuer}/account/sessions`);
    await signInPage(page);
    await tabTo(page, page.getByLabel('Email'));
    await page.keyboard.type(email);
    await tabTo(page, page.getByLabel('Password'));
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${issuer}/account/sessions`);
    await ready(page, 'sessions');
    expect(page.url(), 'no code or state left in the address').to.equal(`${issuer}/account/sessions`);
    const items = page.locator('#sessions-list li');
    expect(await items.count(), 'the sign-up\'s session ended, this one alone').to.equal(1);
    expect(await items.first().locator('.badge').textContent()).to.equal('This device');
    expect(await items.first().locator('strong').textContent()).to.equal('Chrome on Linux');
    const [local, session] = await storageOf(page);
    expect(local, 'localStorage').to.deep.equal([]);
    expect(session, 'sessionStorage (the PKCE verifier and state spent on return)').to.deep.equal([]);
    expect([...(local ?? []), ...(session ?? [])].flat().filter((value) => value.includes('eyJ')), 'no token in storage').to.deep.equal([]);
    expect(problems).to.deep.equal([]);

    // The same browser again: the provider's session answers at once, no sign-in page.
    documents.length = 0;
    await visit(page, 'profile');
    expect(await page.locator('#profile-email').textContent()).to.equal(email);
    expect(documents.filter((path) => path.startsWith('/oidc/interaction/')), `documents: ${documents.join(' ')}`).to.deep.equal([]);
    expect(documents.at(-1)).to.equal('/account/profile');
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('Profile: Name and Last name prefilled, changed with Save; the address shown', async () => {
    const email = await account('profile');
    const { context, page, problems } = await open();
    await signIn(page, email, '/account/profile');
    await ready(page, 'profile');
    expect(await page.locator('#profile-email').textContent()).to.equal(email);
    expect([await page.getByLabel('Name', { exact: true }).inputValue(), await page.getByLabel('Last name').inputValue()]).to.deep.equal(['Ada', 'Lovelace']);
    await page.getByLabel('Name', { exact: true }).fill('Augusta Ada');
    await page.getByLabel('Last name').fill('King');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await saidIn(page, 'profile')).to.equal('Saved.');
    const { user } = (await me(await apiSignIn(email))).body.data;
    expect([user.name, user.lastname]).to.deep.equal(['Augusta Ada', 'King']);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('Sessions: another device listed and signed out with Sign out; Sign out everywhere else ends the rest, the console goes on', async () => {
    const email = await account('sessions');
    const { context, page, problems } = await open();
    await signIn(page, email, '/account/sessions');
    tick(1000);
    const phone = await apiSignIn(email, PASSWORD, { 'user-agent': IPHONE });
    await visit(page, 'sessions');
    const items = page.locator('#sessions-list li');
    expect(await items.count()).to.equal(2);
    const phoneItem = items.filter({ hasText: 'Safari on iOS' });
    expect(await phoneItem.count()).to.equal(1);
    await phoneItem.getByRole('button', { name: 'Sign out', exact: true }).click();
    expect(await saidIn(page, 'sessions')).to.equal('Signed out: Safari on iOS.');
    expect((await me(phone)).status, 'the signed-out session').to.equal(401);
    expect(await items.count()).to.equal(1);

    tick(1000);
    const others = [await apiSignIn(email, PASSWORD, { 'user-agent': IPHONE }), await apiSignIn(email)];
    await visit(page, 'sessions');
    expect(await items.count()).to.equal(3);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    expect(await saidIn(page, 'sessions')).to.equal('Every other device is signed out.');
    expect(await Promise.all(others.map(async (token) => (await me(token)).status))).to.deep.equal([401, 401]);
    expect(await items.count()).to.equal(1);
    expect(await items.first().locator('.badge').textContent()).to.equal('This device');
    // The console's own session lives on: the next page reads the API.
    await page.getByRole('link', { name: 'Profile' }).click();
    await ready(page, 'profile');
    expect(await page.locator('#profile-email').textContent()).to.equal(email);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('Password: Current password, New password, Change password; a wrong current password says the API\'s refusal', async () => {
    const email = await account('password');
    const token = await apiSignIn(email);
    const refused = await postJson(service.url, '/auth/password', { currentpassword: 'not the password at all', newpassword: NEW_PASSWORD }, bearer(token));
    expect(refused.status, refused.text).to.be.within(400, 499);
    const { context, page, problems } = await open();
    await signIn(page, email, '/account/password');
    const form = section(page, 'password');
    await form.getByLabel('Current password').fill('not the password either');
    await form.getByLabel('New password').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    const said = await saidIn(page, 'password', 'alert');
    expect(said.startsWith(refused.body.message as string), said).to.equal(true);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).status, 'the password unchanged').to.equal(201);

    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByLabel('New password').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    expect(await saidIn(page, 'password')).to.equal('Your password is changed; every other device is signed out.');
    expect((await postJson(service.url, '/auth/sign-in', { email, password: NEW_PASSWORD })).status).to.equal(201);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).status).to.equal(401);
    expect(problems.filter((problem) => !/status of 4\d\d/.test(problem)), 'the refused call is the only console line').to.deep.equal([]);
    await context.close();
  });

  it('Two-factor: Set up shows a QR and the secret, Verify gives 10 recovery codes; Turn off asks a step-up in place, then it is off', async () => {
    const email = await account('two-factor');
    const { context, page, problems } = await open();
    await signIn(page, email, '/account/two-factor');
    await ready(page, 'two-factor');
    expect(await page.locator('#totp-state').textContent()).to.equal('Not set up: only your password is asked.');
    await page.locator('#totp-setup-form').getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set up' }).click();
    expect(await saidIn(page, 'totp')).to.equal('Scan the code, then enter the code the app shows.');
    const qr = page.getByRole('img', { name: 'QR code of the secret' });
    expect(await qr.evaluate((element) => (element as unknown as { tagName: string }).tagName.toLowerCase())).to.equal('svg');
    const secret = (await page.locator('#totp-secret').textContent()) ?? '';
    expect(secret).to.match(/^[A-Z2-7]{16,}$/);
    await page.locator('#totp-confirm-form').getByLabel('Code').fill(codeOf(secret, current));
    await page.locator('#totp-confirm-form').getByRole('button', { name: 'Verify' }).click();
    expect(await saidIn(page, 'totp')).to.equal('Two-factor is on. Keep your recovery codes now.');
    const codes = await page.locator('#totp-recovery li').allTextContents();
    expect(codes).to.have.length(10);
    expect(new Set(codes).size).to.equal(10);

    // Turn off: the console's session was proved by password only; the API asks a code, asked in place.
    await page.reload();
    await ready(page, 'two-factor');
    expect(await page.locator('#totp-off-form').isVisible()).to.equal(true);
    tick(30_000);
    await page.locator('#totp-off-form').getByLabel('Current password').fill(PASSWORD);
    await page.locator('#totp-off-form').getByLabel('Code').fill(codeOf(secret, current));
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.locator('#step-up-form:not([hidden])').waitFor();
    expect(await page.getByRole('heading', { name: "Confirm it's you" }).isVisible()).to.equal(true);
    // A wrong code is said in place (the console stays signed in, nothing typed is lost).
    await page.locator('#step-up-form').getByLabel('Code').fill('000000');
    await page.locator('#step-up-form').getByRole('button', { name: 'Verify' }).click();
    await page.locator('#step-up-status[role="alert"]', { hasText: /\S/ }).waitFor();
    expect(await page.locator('#step-up-status').textContent()).to.equal('Invalid code');
    expect(page.url()).to.equal(`${issuer}/account/two-factor`);
    // A recovery code proves it (the app's code typed in the form stays unused for the call made again).
    await page.locator('#step-up-form').getByLabel('Code').fill(codes[0] ?? '');
    await page.locator('#step-up-form').getByRole('button', { name: 'Verify' }).click();
    expect(await saidIn(page, 'totp')).to.equal('Two-factor is off.');
    expect(await page.locator('#step-up-form').isHidden()).to.equal(true);
    expect(await page.locator('#totp-state').textContent()).to.equal('Not set up: only your password is asked.');
    const { mfa } = (await me(await apiSignIn(email))).body.data;
    expect(mfa.enrolled).to.equal(false);
    expect(problems.filter((problem) => !/status of 40[13]/.test(problem)), 'the step-up answer and the wrong code are the only console lines').to.deep.equal([]);
    await context.close();
  });

  it('Passkeys: Add a passkey (a virtual authenticator), Rename, Remove', async () => {
    const email = await account('passkeys');
    const { context, page, problems } = await open();
    await virtualAuthenticator(context, page);
    await signIn(page, email, '/account/passkeys');
    await ready(page, 'passkeys');
    const list = page.locator('#passkeys-list li');
    expect(await list.allTextContents()).to.deep.equal(['No passkey yet.']);
    const form = section(page, 'passkeys');
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByLabel('Passkey name').fill('My laptop');
    await form.getByRole('button', { name: 'Add a passkey' }).click();
    expect(await saidIn(page, 'passkeys')).to.equal('Passkey added.');
    expect(await list.locator('strong').allTextContents()).to.deep.equal(['My laptop']);
    const listed = (await http(service.url, '/auth/passkeys', { method: 'GET', headers: bearer(await apiSignIn(email)) })).body.data.passkeys;
    expect(listed.map((passkey: { name: string }) => passkey.name)).to.deep.equal(['My laptop']);

    await list.getByRole('button', { name: 'Rename' }).click();
    await list.getByLabel('New name for My laptop').fill('Work laptop');
    await list.getByRole('button', { name: 'Save' }).click();
    await says(page, 'passkeys', 'Renamed.');
    expect(await list.locator('strong').allTextContents()).to.deep.equal(['Work laptop']);

    await list.getByRole('button', { name: 'Remove' }).click();
    await says(page, 'passkeys', 'Removed.');
    expect(await list.allTextContents()).to.deep.equal(['No passkey yet.']);
    expect((await http(service.url, '/auth/passkeys', { method: 'GET', headers: bearer(await apiSignIn(email)) })).body.data.passkeys).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('Activity: a failed sign-in through the API is listed', async () => {
    const email = await account('activity');
    tick(1000);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: 'not the password' })).status).to.equal(401);
    tick(1000);
    const { context, page, problems } = await open();
    await signIn(page, email, '/account/activity');
    await ready(page, 'activity');
    const entries = await page.locator('#activity-list li strong').allTextContents();
    expect(entries.filter((entry) => entry.startsWith('Failed sign-in')), entries.join(' | ')).to.deep.equal(['Failed sign-in (wrong password)']);
    expect(entries, entries.join(' | ')).to.include.members(['Signed in', 'Address confirmed', 'Account created']);
    // Newest first: the console's own sign-in, then the failed one, the account's creation last.
    expect(entries.indexOf('Signed in')).to.be.lessThan(entries.indexOf('Failed sign-in (wrong password)'));
    expect(entries.at(-1)).to.equal('Account created');
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('Export: Download my data downloads a JSON file that holds the account', async () => {
    const email = await account('export');
    const { context, page, problems } = await open();
    await signIn(page, email, '/account/export');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).to.equal('my-account.json');
    const text = readFileSync(await download.path(), 'utf8');
    expect(() => JSON.parse(text) as unknown).not.to.throw();
    expect(text).to.include(`"${email}"`);
    expect(await saidIn(page, 'export')).to.equal('Your data is downloaded (my-account.json).');
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('Delete account: anything but DELETE is refused without a call; DELETE and the password delete it', async () => {
    const email = await account('delete');
    const { context, page, problems } = await open();
    const deletes: string[] = [];
    page.on('request', (request) => void (request.method() === 'DELETE' && deletes.push(request.url())));
    await signIn(page, email, '/account/delete');
    const form = section(page, 'delete');
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByLabel('Type DELETE to confirm').fill('delete');
    await form.getByRole('button', { name: 'Delete account' }).click();
    await page.waitForTimeout(300);
    expect(deletes, 'no call made').to.deep.equal([]);
    expect(await form.getByLabel('Type DELETE to confirm').evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid)).to.equal(false);
    expect(await page.locator('#console').isVisible(), 'still signed in').to.equal(true);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).status).to.equal(201);

    await form.getByLabel('Type DELETE to confirm').fill('DELETE');
    await form.getByRole('button', { name: 'Delete account' }).click();
    await page.locator('#console-status', { hasText: 'Your account is deleted.' }).waitFor();
    expect(await page.locator('#console').isHidden()).to.equal(true);
    expect(deletes).to.deep.equal([`${issuer}/auth/me`]);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).status).to.equal(401);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('every page: no serious axe-core violation, each reached and used by keyboard; console.js within 60 KB gzipped', async () => {
    const email = await account('audit');
    const { context, page } = await open({ bypassCSP: true });
    await signIn(page, email, '/account/profile');
    const failures: string[] = [];
    for (const slug of SLUGS) {
      await visit(page, slug);
      const violations = await axeViolations(page);
      if (violations.length > 0) failures.push(`${slug}:\n${violations.join('\n')}`);
    }
    expect(failures).to.deep.equal([]);
    await context.close();

    // By keyboard: from the first page, each other one through the menu (Tab, Enter), switched in place.
    const watchedPage = await open();
    const keyboard = watchedPage.page;
    await signIn(keyboard, email, '/account/profile');
    await ready(keyboard, 'profile');
    const controls: Partial<Record<Slug, string>> = {
      profile: 'Save',
      sessions: 'Sign out everywhere else',
      password: 'Change password',
      'two-factor': 'Set up',
      passkeys: 'Add a passkey',
      export: 'Download my data',
      delete: 'Delete account',
    };
    for (const slug of SLUGS) {
      if (slug !== 'profile') {
        await tabTo(keyboard, keyboard.getByRole('link', { name: NAMES[slug], exact: true }), 40);
        await keyboard.keyboard.press('Enter');
        await keyboard.waitForURL(`${issuer}/account/${slug}`);
        await ready(keyboard, slug);
      }
      expect(await keyboard.getByRole('heading', { level: 1 }).filter({ visible: true }).textContent()).to.equal(NAMES[slug]);
      const control = controls[slug];
      if (control !== undefined) await tabTo(keyboard, section(keyboard, slug).getByRole('button', { name: control, exact: true }), 40);
    }
    expect(watchedPage.problems).to.deep.equal([]);
    await watchedPage.context.close();

    const script = Buffer.from(await (await fetch(`${issuer}/account/assets/console.js`)).arrayBuffer());
    expect(gzipSync(script).length, 'console.js gzipped').to.be.at.most(60 * 1024);
  });

  it('screenshots of every page for docs/account-console.md (deterministic: the service\'s clock, masked secrets)', async () => {
    expect(current.getTime(), 'the tests before stay before the screenshots\' time').to.be.below(SCREENSHOT_TIME);
    current = new Date(SCREENSHOT_TIME);
    mkdirSync(SCREENSHOTS, { recursive: true });
    const shoot = (page: Page, slug: string, mask: Locator[] = []) => keepSettledScreenshot(page, join(SCREENSHOTS, `${slug}.png`), mask);
    const email = await account('screenshots');
    const { context, page, problems } = await open();
    await virtualAuthenticator(context, page);
    await page.goto(`${issuer}/account/profile`);
    await signInPage(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await shoot(page, 'sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${issuer}/account/profile`);
    await consoleShown(page);
    tick(60_000);
    await apiSignIn(email, PASSWORD, { 'user-agent': IPHONE });
    tick(60_000);
    await postJson(service.url, '/auth/sign-in', { email, password: 'not the password' });
    tick(60_000);
    await visit(page, 'passkeys');
    await section(page, 'passkeys').getByLabel('Current password').fill(PASSWORD);
    await section(page, 'passkeys').getByLabel('Passkey name').fill('My laptop');
    await section(page, 'passkeys').getByRole('button', { name: 'Add a passkey' }).click();
    expect(await saidIn(page, 'passkeys')).to.equal('Passkey added.');
    tick(60_000);
    for (const slug of SLUGS) {
      await visit(page, slug);
      await shoot(page, slug);
    }
    await visit(page, 'two-factor');
    await section(page, 'two-factor').getByLabel('Current password').first().fill(PASSWORD);
    await page.getByRole('button', { name: 'Set up' }).click();
    await page.getByRole('img', { name: 'QR code of the secret' }).waitFor();
    await shoot(page, 'two-factor-setup', [page.locator('#totp-qr'), page.locator('#totp-secret'), page.locator('#totp-recovery')]);
    expect(problems).to.deep.equal([]);
    await context.close();
  });
});
