import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { chromiumOrSkip, launchChromium } from './chromium.js';
import { freePort } from './oidc-browser.js';
import { type OidcTestProvider, startOidcTestProvider } from './oidc-test-provider.js';
import { type TestService, startTestService } from './test-service.js';

/** The page's side, as far as this module reaches into it (the tests compile without the DOM library). */
interface InPage {
  document: { addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string }) => void): void };
  reportCspViolation(violation: string): void;
}

export interface WatchedPage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** What went wrong on the page, as the test reads it at its end: console errors, CSP violations, requests to any other origin. */
  readonly problems: string[];
}

/**
 * A page in a context of its own whose console errors, Content-Security-Policy violations and requests to anywhere
 * but `origin` (blob: URLs aside: the export's download) are gathered in `problems`, for a test to expect none.
 */
export async function watchedPage(browser: Browser, origin: string, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => void (message.type() === 'error' && problems.push(`console: ${message.text()}`)));
  page.on('request', (request) => void (!request.url().startsWith('blob:') && new URL(request.url()).origin !== origin && problems.push(`request elsewhere: ${request.url()}`)));
  await page.exposeFunction('reportCspViolation', (violation: string) => void problems.push(`CSP: ${violation}`));
  await page.addInitScript(() => (globalThis as unknown as InPage).document.addEventListener('securitypolicyviolation', (event) => (globalThis as unknown as InPage).reportCspViolation(event.violatedDirective)));
  return { context, page, problems };
}

/** The provider's sign-in page, reached by a redirect from a console's page. */
export async function signInPageShown(page: Page): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith('/oidc/interaction/'));
  await page.getByLabel('Email').waitFor();
}

/** Opens `path` of a console, signs in with a password at the provider's page it leads to, and waits to be back at `path`. */
export async function passwordSignIn(page: Page, origin: string, path: string, email: string, password: string): Promise<void> {
  await page.goto(`${origin}${path}`);
  await signInPageShown(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${origin}${path}`);
}

/** What `consoleWithProvider` starts: read its fields inside a test (they are set in its `before`). */
export interface ConsoleWithProvider {
  service: TestService;
  /** The test's own OpenID provider, configured in the service as provider `corp`. */
  corp: OidcTestProvider;
  browser: Browser;
  /** `http://localhost:<port>`: the service's own address, the consoles' origin. */
  issuer: string;
}

/**
 * In a `describe`: the service on localhost (WebAuthn and the consoles want a name, not an address) with `corp`, an
 * OpenID provider of the test's, as its one social provider, and Chromium; `env` adds settings that depend on the
 * service's address. Stopped after the suite; skipped by name without Chromium.
 */
export function consoleWithProvider(env: (issuer: string) => Record<string, string> = () => ({})): ConsoleWithProvider {
  const stand = {} as ConsoleWithProvider;
  before(async function () {
    if (!chromiumOrSkip(this)) return;
    const port = await freePort();
    stand.issuer = `http://localhost:${port}`;
    stand.corp = await startOidcTestProvider({ redirectUris: [`${stand.issuer}/auth/oauth/corp/callback`] });
    stand.service = await startTestService({
      PORT: String(port), PUBLIC_API_URL: stand.issuer, RATE_LIMIT_MAX: '10000', OAUTH_PROVIDERS: 'corp',
      OAUTH_CORP_ISSUER: stand.corp.issuer, OAUTH_CORP_CLIENT_ID: stand.corp.clientId, OAUTH_CORP_CLIENT_SECRET: stand.corp.clientSecret,
      ...env(stand.issuer),
    });
    stand.browser = await launchChromium();
  });
  after(async () => {
    await stand.browser?.close();
    await stand.service?.dispose();
    await stand.corp?.close();
  });
  return stand;
}
