import { readFileSync } from 'node:fs';
import { chromiumOrSkip, launchChromium } from '../support/chromium.js';
import { type Server, createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { type OidcTestProvider, startOidcTestProvider } from '../support/oidc-test-provider.js';
import { type TestService, startTestService } from '../support/test-service.js';


const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'social-sign-in.md'), 'utf8');

/**
 * The app's page as docs/social-sign-in.md ("The app's code") writes it, with this test's service and provider in
 * its `API` and `PROVIDER`: the one ```js block of that section, else the test fails naming what it missed.
 */
const appPage = (api: string, provider: string): string => {
  const section = DOC.slice(DOC.indexOf("## The app's code"), DOC.indexOf('## Which account'));
  const script = /^```js\n([\s\S]*?)^```$/m.exec(section)?.[1];
  expect(script, "docs/social-sign-in.md: a ```js block under \"The app's code\"").to.be.a('string');
  const withApi = script!.replace(/^const API = '[^']*';/m, `const API = ${JSON.stringify(api)};`);
  const withProvider = withApi.replace(/^const PROVIDER = '[^']*';/m, `const PROVIDER = ${JSON.stringify(provider)};`);
  expect(withApi, "the doc's page sets `const API = '...';`").to.not.equal(script);
  expect(withProvider, "the doc's page sets `const PROVIDER = '...';`").to.not.equal(withApi);
  return `<!doctype html>\n<title>Example app</title>\n<script type="module">\n${withProvider}</script>\n`;
};

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
};

/** A port free right now (the provider must know the service's redirect URI before the service listens). */
const freePort = async (): Promise<number> => {
  const probe = createNetServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
};

describe('Browser (Chromium): social sign-in as a single-page app does it, app → service → provider → app → exchange', function () {
  this.timeout(20_000);
  let browser: Browser | undefined;
  let service: TestService | undefined;
  let corp: OidcTestProvider | undefined;
  let api = '';
  let app = '';
  let appHtml = '';
  const appServer = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://app').pathname;
    const page = path === '/' ? appHtml : null;
    if (page === null) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });

  before(async function () {
    if (!chromiumOrSkip(this)) return;
    app = `http://127.0.0.1:${await listen(appServer)}`;
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    appHtml = appPage(api, 'corp');
    corp = await startOidcTestProvider({ redirectUris: [`${api}/auth/oauth/corp/callback`] });
    service = await startTestService({
      STORAGE: 'memory',
      PORT: String(port),
      PUBLIC_API_URL: api,
      OAUTH_PROVIDERS: 'corp',
      OAUTH_REDIRECT_URLS: `${app}/`,
      OAUTH_CORP_ISSUER: corp.issuer,
      OAUTH_CORP_CLIENT_ID: corp.clientId,
      OAUTH_CORP_CLIENT_SECRET: corp.clientSecret,
      CORS_ORIGINS: app,
    });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await service?.dispose();
    await corp?.close();
    if (appServer.listening) await new Promise((done) => appServer.close(done));
  });

  /** Where `url` is, for the navigation trail: the app's and service's paths, the provider as one stop. */
  const stopOf = (url: string): string => {
    const { origin, pathname } = new URL(url);
    if (origin === corp?.issuer) return 'provider';
    return `${origin === app ? 'app' : origin === api ? 'service' : origin} ${pathname}`;
  };

  /** What the doc's page shows once it has an outcome: the JSON its `show` writes into the body. */
  const resultOf = async (page: Page): Promise<unknown> => {
    await page.waitForFunction("document.body !== null && (document.body.textContent ?? '').startsWith('{')");
    return JSON.parse((await page.textContent('body')) ?? 'null') as unknown;
  };

  it("signs in with the doc's page (amr oauth), no token in any URL, the code forgotten; the code's URL again cannot spend it", async () => {
    const email = `browser-${Date.now()}@example.com`;
    corp!.setAccount('browser-sub', { email, email_verified: true, given_name: 'Grace', family_name: 'Hopper' });
    corp!.autoLogin('browser-sub');
    const page = await browser!.newPage();
    const urls: string[] = [];
    const trail: string[] = [];
    page.on('framenavigated', (frame) => urls.push(frame.url()));
    page.on('request', (request) => {
      urls.push(request.url());
      const stop = stopOf(request.url());
      if (request.isNavigationRequest() && trail.at(-1) !== stop) trail.push(stop);
    });
    const exchanged = page.waitForResponse((response) => response.url() === `${api}/auth/oauth/token` && response.request().method() === 'POST');

    await page.goto(`${app}/`);
    const tokens = ((await (await exchanged).json()) as { data: { accesstoken: string; refreshtoken: string } }).data;
    const signedIn = await resultOf(page);

    const landed = new URL(urls.find((url) => url.startsWith(`${app}/?`)) ?? `${app}/`);
    expect([...landed.searchParams.keys()], landed.href).to.deep.equal(['code']);
    expect(landed.searchParams.get('code'), 'a one-time code, not a JWT').to.match(/^[^.]{16,}$/);
    expect(page.url(), 'the page forgot the code in the address bar').to.equal(`${app}/`);
    expect(signedIn).to.deep.equal({ status: 201, email });
    const amr = (JSON.parse(Buffer.from(tokens.accesstoken.split('.')[1]!, 'base64url').toString('utf8')) as { amr: string[] }).amr;
    expect(amr).to.deep.equal(['oauth']);
    expect(trail).to.deep.equal(['app /', 'service /auth/oauth/corp/authorize', 'provider', 'service /auth/oauth/corp/callback', 'app /']);
    expect(tokens.refreshtoken).to.have.length.above(16);
    for (const url of urls) {
      expect(url.includes(tokens.accesstoken) || url.includes(tokens.refreshtoken), url).to.equal(false);
      expect(url, 'no JWT (access or ID token) in a URL').to.not.match(/eyJ[\w-]+\.[\w-]+\./);
    }

    await page.goto(landed.href);
    expect(await resultOf(page)).to.deep.equal({
      status: 400,
      message: 'Invalid input data',
      errors: [{ field: 'code', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }],
    });
    await page.close();
  });
});
