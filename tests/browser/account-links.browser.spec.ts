import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { chromiumOrSkip, launchChromium } from '../support/chromium.js';
import { http, postJson } from '../support/http-client.js';
import { freePort } from '../support/oidc-browser.js';
import { axeViolations, tabTo } from '../support/page-audit.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { mailedTexts } from '../support/verify-by-mail.js';
import { watchedPage } from '../support/console-browser.js';

const PASSWORD = 'difference engine 1822';
const NEW_PASSWORD = 'a brand new passphrase 1815';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The link to `page` in the mail `subject` to `email`: the whole URL, its fragment included. */
const mailedLink = async (service: TestService, email: string, subject: string, page: string): Promise<string> => {
  const texts = await mailedTexts(service, email, subject, 1);
  const links = texts.flatMap((text) => [...text.matchAll(/https?:\/\/\S+#token=[\w%.-]+/g)].map((match) => match[0]));
  const link = links.find((found) => new URL(found).pathname.endsWith(`/${page}`));
  expect(link, `a link to ${page} in "${subject}": ${links.join(' ')}`).to.be.a('string');
  return link ?? '';
};

/** The page's side, as far as these tests reach into it (the tests compile without the DOM library). */
interface InPage {
  location: { href: string };
}

describe('Browser (Chromium): the pages mailed links open, at the service itself (issue 65: PUBLIC_APP_URL unset)', function () {
  this.timeout(60_000);
  let service: TestService;
  let browser: Browser;
  let issuer = '';

  before(async function () {
    if (!chromiumOrSkip(this)) return;
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    // PUBLIC_APP_URL unset: the mails link to the service's own pages.
    service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer, RATE_LIMIT_MAX: '10000' });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await service?.dispose();
  });

  /** A page under the pages' own policy, its console errors, CSP violations and requests elsewhere watched. */
  const watched = async () => {
    const { context, page, problems } = await watchedPage(browser, issuer);
    return { page, problems, close: () => context.close() };
  };
  /** axe-core's serious and critical violations of the page at `url` (a context bypassing the CSP, for the audit script only). */
  const audit = async (url: string): Promise<string[]> => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(url);
    const violations = await axeViolations(page);
    await context.close();
    return violations;
  };
  const statusOf = (page: Page) => page.locator('#link-status');

  it('verify: the mail links to the service, the page asks, the keyboard confirms, the address is proven; the token leaves the address bar', async () => {
    const email = `links.verify.${Date.now()}@example.com`;
    const up = await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email, password: PASSWORD });
    const link = await mailedLink(service, email, 'Confirm your e-mail address', 'verify-email');
    expect(link.startsWith(`${issuer}/account/verify-email#token=`), link).to.equal(true);
    expect(await audit(link)).to.deep.equal([]);
    const served = await fetch(link.split('#')[0] ?? '');
    expect(served.headers.get('content-security-policy')).to.include("script-src 'self'").and.include("frame-ancestors 'none'").and.not.include('unsafe-inline');
    expect([served.headers.get('referrer-policy'), served.headers.get('cache-control')]).to.deep.equal(['no-referrer', 'no-store']);
    const { page, problems, close } = await watched();
    await page.goto(link);
    expect(await page.evaluate(() => (globalThis as unknown as InPage).location.href)).to.equal(`${issuer}/account/verify-email`);
    const confirm = page.getByRole('button', { name: 'Confirm my address' });
    await tabTo(page, confirm);
    await page.keyboard.press('Enter');
    await page.locator('#link-status[role="status"]', { hasText: /\S/ }).waitFor();
    expect(await statusOf(page).textContent()).to.equal('Your address is confirmed. You can close this page.');
    const me = await http(service.url, '/auth/me', { method: 'GET', headers: bearer(up.body.data.accesstoken as string) });
    expect(me.body.data.user.emailverified).to.equal(true);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('reset: New password and Reset password; the new one signs in, the old one no more; a spent link says why', async () => {
    const email = `links.reset.${Date.now()}@example.com`;
    await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email, password: PASSWORD });
    await postJson(service.url, '/auth/password-reset', { email });
    const link = await mailedLink(service, email, 'Reset your password', 'reset-password');
    expect(link.startsWith(`${issuer}/account/reset-password#token=`), link).to.equal(true);
    expect(await audit(link)).to.deep.equal([]);
    const { page, problems, close } = await watched();
    await page.goto(link);
    const field = page.getByLabel('New password');
    await tabTo(page, field);
    await page.keyboard.type(NEW_PASSWORD);
    await tabTo(page, page.getByRole('button', { name: 'Reset password' }));
    await page.keyboard.press('Enter');
    await page.locator('#link-status', { hasText: /\S/ }).waitFor();
    expect(await statusOf(page).textContent()).to.equal('Your password is changed. Sign in with it from the app you use.');
    expect((await postJson(service.url, '/auth/sign-in', { email, password: NEW_PASSWORD })).status).to.equal(201);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).status).to.equal(401);
    // The same link again (a new load: the page itself dropped the fragment): the API's refusal, said on the page.
    await page.goto('about:blank');
    await page.goto(link);
    await page.getByLabel('New password').fill('yet another passphrase 1833');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.locator('#link-status[role="alert"]').waitFor();
    expect(await statusOf(page).textContent()).to.match(/\S/);
    expect(problems.filter((problem) => !problem.includes('400')), 'the refused POST is the only console line').to.deep.equal([]);
    await close();
  });

  it('Forgot your password? An address, a reset link sent, which signs every device out', async () => {
    const email = `links.sessions.${Date.now()}@example.com`;
    const up = await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email, password: PASSWORD });
    const link = `${issuer}/account/forgot-password`;
    expect(await audit(link)).to.deep.equal([]);
    const { page, problems, close } = await watched();
    await page.goto(link);
    await tabTo(page, page.getByLabel('Email'));
    await page.keyboard.type(email);
    await tabTo(page, page.getByRole('button', { name: 'Send me a reset link' }));
    await page.keyboard.press('Enter');
    await page.locator('#link-status', { hasText: /\S/ }).waitFor();
    expect(await statusOf(page).textContent()).to.equal('If this address has an account, a reset link is on its way to it. Open it from that mailbox.');
    const reset = await mailedLink(service, email, 'Reset your password', 'reset-password');
    const done = await postJson(service.url, '/auth/password-reset/confirm', { token: decodeURIComponent(reset.split('#token=')[1] ?? ''), newpassword: NEW_PASSWORD });
    expect(done.status).to.equal(200);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(up.body.data.accesstoken as string) })).status, 'every device signed out').to.equal(401);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('says a link without its token is incomplete, and offers nothing to press', async () => {
    const { page, close } = await watched();
    await page.goto(`${issuer}/account/confirm-email`);
    await page.locator('#link-status[role="alert"]').waitFor();
    expect(await statusOf(page).textContent()).to.equal('This link is incomplete. Open it again from the mail, all of it.');
    expect(await page.getByRole('button', { name: 'Confirm the new address' }).isDisabled()).to.equal(true);
    await close();
  });
});
