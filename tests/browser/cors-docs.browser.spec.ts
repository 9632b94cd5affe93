import { mkdirSync } from 'node:fs';
import { chromiumOrSkip, launchChromium } from '../support/chromium.js';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { type TestService, startTestService } from '../support/test-service.js';

const HOSTS = ['app.test', 'evil.test', 'api.test', 'docs.test'];
export const SCREENSHOT = resolve('artifacts', 'docs.png');

/** The outcome of sign-up, sign-in and GET /auth/me called with fetch() from inside a page. */
interface BrowserFlow {
  readonly statuses: number[];
  readonly requestId: string | null;
  readonly rateLimitRemaining: string | null;
  readonly email: string | null;
  readonly error: string | null;
}

/** Runs in the page: what a web app on another origin does with the API. */
const signUpSignInMe = async ({ api, email }: { api: string; email: string }): Promise<BrowserFlow> => {
  const statuses: number[] = [];
  try {
    const json = { 'content-type': 'application/json' };
    const credentials = { email, password: 'analytical engine 1843' };
    const up = await fetch(`${api}/auth/sign-up`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Ada', lastname: 'Lovelace', ...credentials }) });
    statuses.push(up.status);
    const signIn = await fetch(`${api}/auth/sign-in`, { method: 'POST', headers: json, body: JSON.stringify(credentials) });
    statuses.push(signIn.status);
    const { data } = (await signIn.json()) as { data: { accesstoken: string } };
    const me = await fetch(`${api}/auth/me`, { headers: { authorization: `Bearer ${data.accesstoken}` } });
    statuses.push(me.status);
    const body = (await me.json()) as { data: { user: { email: string } } };
    return { statuses, requestId: me.headers.get('x-request-id'), rateLimitRemaining: me.headers.get('x-ratelimit-remaining'), email: body.data.user.email, error: null };
  } catch (error) {
    return { statuses, requestId: null, rateLimitRemaining: null, email: null, error: String(error) };
  }
};

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
};

describe('Browser (Chromium): a web app on another origin, and /docs on a non-localhost host', function () {
  let browser: Browser | undefined;
  let service: TestService | undefined;
  let appPort = 0;
  const pages = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title><p>app</p>'));
  const api = () => `http://api.test:${new URL(service?.url ?? 'http://x').port}`;

  before(async function () {
    if (!chromiumOrSkip(this)) return;
    appPort = await listen(pages);
    service = await startTestService({ STORAGE: 'memory', CORS_ORIGINS: `http://app.test:${appPort}` });
    const rules = HOSTS.map((host) => `MAP ${host} 127.0.0.1`).join(', ');
    browser = await launchChromium([`--host-resolver-rules=${rules}`]);
  });

  after(async () => {
    await browser?.close();
    await service?.dispose();
    if (pages.listening) await new Promise((done) => pages.close(done));
  });

  const pageAt = async (url: string): Promise<Page> => {
    const page = await browser!.newPage();
    await page.goto(url);
    return page;
  };

  it('from the allowed origin: fetch signs up, signs in and reads /auth/me, and can read the exposed headers', async () => {
    const page = await pageAt(`http://app.test:${appPort}/`);
    const flow = await page.evaluate(signUpSignInMe, { api: api(), email: 'browser@example.com' });
    await page.close();
    expect(flow.error).to.equal(null);
    expect(flow.statuses).to.deep.equal([201, 201, 200]);
    expect(flow.email).to.equal('browser@example.com');
    expect(flow.requestId).to.match(/^[0-9a-f-]{36}$/);
    expect(flow.rateLimitRemaining).to.match(/^\d+$/);
  });

  it('from another origin: the browser blocks the very first call', async () => {
    const page = await pageAt(`http://evil.test:${appPort}/`);
    const flow = await page.evaluate(signUpSignInMe, { api: api(), email: 'evil@example.com' });
    await page.close();
    expect(flow.error).to.match(/TypeError: Failed to fetch/);
    expect(flow.statuses).to.deep.equal([]);
  });

  it('/docs at http://docs.test renders every operation with no console error and no CSP violation (screenshot kept)', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
    await page.addInitScript(
      "document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))",
    );
    const docsUrl = `http://docs.test:${new URL(service!.url).port}/docs`;
    await page.goto(docsUrl, { waitUntil: 'load' });
    await page.waitForSelector('.opblock', { timeout: 10_000 });
    const operations = await page.locator('.opblock').count();
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    process.stdout.write(`      browser: screenshot of ${docsUrl} at ${SCREENSHOT}\n`);
    const scheme = new URL(page.url()).protocol;
    await page.close();
    expect(scheme).to.equal('http:');
    expect(operations).to.be.at.least(18);
    expect(problems).to.deep.equal([]);
  });
});
