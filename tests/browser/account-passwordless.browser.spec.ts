import { expect } from 'chai';
import { consoleWithProvider } from '../support/console-browser.js';
import { apiKeyFor } from '../support/api-keys.js';
import { http } from '../support/http-client.js';

/** The page's side, as far as the test reaches into it (the tests compile without the DOM library). */
interface InPage {
  sessionStorage: { length: number };
}

describe('Browser (Chromium): an account without a password proves itself on the console by a new sign-in at its provider (issue 65)', function () {
  this.timeout(60_000);
  // Flows come back to the console (PUBLIC_APP_URL's default) and to the sign-in pages' social return.
  const stand = consoleWithProvider((issuer) => ({ OAUTH_REDIRECT_URLS: `${issuer}/account,${issuer}/oidc/social-return` }));

  it('signs up with the provider at the sign-in page, asks no password on Delete account, and deletes after the provider signs the holder in again', async () => {
    const { service, corp, browser, issuer } = stand;
    const email = `passwordless.${Date.now()}@corp.example`;
    corp.setAccount('corp-grace', { email, email_verified: true, given_name: 'Grace', family_name: 'Hopper' });
    corp.autoLogin('corp-grace');
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
    await page.goto(`${issuer}/account/delete`);
    await page.getByRole('link', { name: 'Sign in with Corp' }).click();
    await page.waitForURL(`${issuer}/account/delete`);
    const section = page.locator('#section-delete');
    await section.getByLabel('Type DELETE to confirm').waitFor();
    // No password to ask: the field is not shown.
    expect(await section.getByLabel('Current password').isVisible(), 'the password field').to.equal(false);
    await section.getByLabel('Type DELETE to confirm').fill('DELETE');
    await section.getByRole('button', { name: 'Delete account' }).click();
    // The provider signs the holder in again (prompt=login), the console signs in again and sends the form once more.
    await page.locator('#console-status', { hasText: 'Your account is deleted.' }).waitFor({ timeout: 20_000 });
    expect(page.url()).to.equal(`${issuer}/account/delete`);
    expect(await page.evaluate(() => (globalThis as unknown as InPage).sessionStorage.length), 'nothing left in storage').to.equal(0);
    // The account is gone.
    const reader = (await apiKeyFor(service.dataDir, 'users:read')).key;
    const found = await http(service.url, `/admin/users?query=${encodeURIComponent(email)}`, { method: 'GET', headers: { authorization: `Bearer ${reader}` } });
    expect([found.status, found.body.data.users]).to.deep.equal([200, []]);
    expect(problems).to.deep.equal([]);
    await context.close();
  });
});
