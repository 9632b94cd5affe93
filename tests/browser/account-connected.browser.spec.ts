import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { http, postJson } from '../support/http-client.js';
import { verifyByMail } from '../support/verify-by-mail.js';
import { consoleWithProvider, passwordSignIn } from '../support/console-browser.js';

const PASSWORD = 'difference engine 1822';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The page's side, as far as the test reaches into it (the tests compile without the DOM library). */
interface InPage {
  localStorage: { length: number };
  sessionStorage: { length: number };
}

describe('Browser (Chromium): the account console connects and disconnects a provider\'s account (issue 65)', function () {
  this.timeout(60_000);
  // PUBLIC_APP_URL unset: the console is the app, and a provider's flow comes back to it (OAUTH_REDIRECT_URLS' default).
  const stand = consoleWithProvider();

  const signInAt = async (page: Page, path: string, email: string) => {
    await passwordSignIn(page, stand.issuer, path, email, PASSWORD);
    await page.locator('#console:not([hidden])').waitFor();
  };

  it("Connect: the current password, the provider's sign-in, back at Connected accounts with it listed; Disconnect removes it", async () => {
    const { service, corp, browser, issuer } = stand;
    const email = `connect.${Date.now()}@example.com`;
    const up = await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email, password: PASSWORD });
    await verifyByMail(service, email);
    // The provider's account shows another address: a link is made by the signed-in holder, whatever address it shows.
    corp.setAccount('corp-ada', { email: 'ada@corp.example', email_verified: true, given_name: 'Ada', family_name: 'L' });
    corp.autoLogin('corp-ada');
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
    await signInAt(page, '/account/connected', email);
    const section = page.locator('#section-connected');
    await section.getByText('None connected.').waitFor();
    const sessionsBefore = (await http(service.url, '/auth/sessions', { method: 'GET', headers: bearer(up.body.data.accesstoken as string) })).body.data.sessions.length as number;
    await section.getByLabel('Current password').fill(PASSWORD);
    await section.getByRole('button', { name: 'Connect Corp' }).click();
    await page.waitForURL(`${issuer}/account/connected`, { timeout: 20_000 });
    await page.locator('#connected-status', { hasText: 'Connected.' }).waitFor();
    const identities = await http(service.url, '/auth/identities', { method: 'GET', headers: bearer(up.body.data.accesstoken as string) });
    expect(identities.body.data.identities.map((identity: { provider: string }) => identity.provider)).to.deep.equal(['corp']);
    await section.locator('li', { hasText: 'corp' }).waitFor();
    // The exchange's own sign-in ended at once: no session is left behind by the connection.
    const sessionsAfter = (await http(service.url, '/auth/sessions', { method: 'GET', headers: bearer(up.body.data.accesstoken as string) })).body.data.sessions.length as number;
    expect(sessionsAfter, 'sessions after the connection').to.equal(sessionsBefore);
    expect(await page.evaluate(() => [(globalThis as unknown as InPage).localStorage.length, (globalThis as unknown as InPage).sessionStorage.length]), 'nothing left in storage').to.deep.equal([0, 0]);
    await section.getByRole('button', { name: 'Disconnect' }).click();
    await section.getByText('None connected.').waitFor();
    const after = await http(service.url, '/auth/identities', { method: 'GET', headers: bearer(up.body.data.accesstoken as string) });
    expect(after.body.data.identities).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('a wrong current password is said on the page, and nothing leaves it', async () => {
    const { service, browser, issuer } = stand;
    const email = `connect.wrong.${Date.now()}@example.com`;
    await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email, password: PASSWORD });
    await verifyByMail(service, email);
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAt(page, '/account/connected', email);
    const section = page.locator('#section-connected');
    await section.getByLabel('Current password').fill('not my password');
    await section.getByRole('button', { name: 'Connect Corp' }).click();
    await page.locator('#connected-status[role="alert"]').waitFor();
    expect(page.url()).to.equal(`${issuer}/account/connected`);
    await context.close();
  });
});
