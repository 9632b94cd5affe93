import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

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
