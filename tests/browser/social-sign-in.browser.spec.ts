import { existsSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { expect } from 'chai';
import { type Browser, type Page, chromium } from 'playwright-core';
import { type OidcTestProvider, startOidcTestProvider } from '../support/oidc-test-provider.js';
import { type TestService, startTestService } from '../support/test-service.js';

/** Debian's Chromium; CHROMIUM_PATH points elsewhere (a missing path shows the skip). */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The app's start page: a PKCE verifier kept in this tab, its S256 challenge sent to the service's authorize. */
const startPage = (api: string) => `<!doctype html>
<title>Example app</title>
<p>Signing in with corp…</p>
<script type="module">
  const API = ${JSON.stringify(api)};
  const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  sessionStorage.setItem('code_verifier', verifier);
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const query = new URLSearchParams({ redirect_to: location.origin + '/signed-in', code_challenge: challenge, code_challenge_method: 'S256' });
  location.assign(API + '/auth/oauth/corp/authorize?' + query);
</script>
`;

/** The app's return page: the one-time `code` (or `error`) and the tab's verifier exchanged for the sign-in. */
const signedInPage = (api: string) => `<!doctype html>
<title>Example app: signed in</title>
<pre id="result">…</pre>
<script type="module">
  const API = ${JSON.stringify(api)};
  const result = document.getElementById('result');
  const show = (status, value) => {
    result.textContent = JSON.stringify(value);
    result.dataset.status = status;
  };
  const params = new URLSearchParams(location.search);
  if (params.has('error')) {
    show('error', { error: params.get('error') });
  } else {
    const response = await fetch(API + '/auth/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: params.get('code'), code_verifier: sessionStorage.getItem('code_verifier') }),
    });
    const body = await response.json();
    if (response.status === 201) {
      const payload = body.data.accesstoken.split('.')[1].replaceAll('-', '+').replaceAll('_', '/');
      show(response.status, { email: body.data.user.email, amr: JSON.parse(atob(payload)).amr });
    } else {
      show(response.status, { message: body.message, errors: body.errors });
    }
  }
</script>
`;

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
  const appServer = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://app').pathname;
    const page = path === '/' ? startPage(api) : path === '/signed-in' ? signedInPage(api) : null;
    if (page === null) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      (this.test?.parent as (Mocha.Suite & { skipReason?: string }) | undefined)!.skipReason = `no Chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;
      this.skip();
    }
    app = `http://127.0.0.1:${await listen(appServer)}`;
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    corp = await startOidcTestProvider({ redirectUris: [`${api}/auth/oauth/corp/callback`] });
    service = await startTestService({
      STORAGE: 'memory',
      PORT: String(port),
      PUBLIC_API_URL: api,
      OAUTH_PROVIDERS: 'corp',
      OAUTH_REDIRECT_URLS: `${app}/signed-in`,
      OAUTH_CORP_ISSUER: corp.issuer,
      OAUTH_CORP_CLIENT_ID: corp.clientId,
      OAUTH_CORP_CLIENT_SECRET: corp.clientSecret,
      CORS_ORIGINS: app,
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, '--no-proxy-server'] });
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

  const resultOf = async (page: Page): Promise<{ status: string | null; value: unknown }> => {
    const result = page.locator('#result[data-status]');
    await result.waitFor();
    return { status: await result.getAttribute('data-status'), value: JSON.parse((await result.textContent()) ?? 'null') as unknown };
  };

  it("signs in in the browser with the provider's account (amr oauth), no token in any URL; a reload cannot spend the code again", async () => {
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
    await page.waitForURL((url) => url.origin === app && url.pathname === '/signed-in');
    const signedIn = await resultOf(page);
    const tokens = ((await (await exchanged).json()) as { data: { accesstoken: string; refreshtoken: string } }).data;

    const landed = new URL(page.url());
    expect([...landed.searchParams.keys()], landed.href).to.deep.equal(['code']);
    expect(landed.searchParams.get('code'), 'a one-time code, not a JWT').to.match(/^[^.]{16,}$/);
    expect(signedIn).to.deep.equal({ status: '201', value: { email, amr: ['oauth'] } });
    expect(trail).to.deep.equal(['app /', 'service /auth/oauth/corp/authorize', 'provider', 'service /auth/oauth/corp/callback', 'app /signed-in']);
    expect(tokens.accesstoken.split('.')).to.have.length(3);
    expect(tokens.refreshtoken).to.have.length.above(16);
    for (const url of urls) {
      expect(url.includes(tokens.accesstoken) || url.includes(tokens.refreshtoken), url).to.equal(false);
      expect(url, 'no JWT (access or ID token) in a URL').to.not.match(/eyJ[\w-]+\.[\w-]+\./);
    }

    await page.reload();
    expect(page.url()).to.equal(landed.href);
    expect(await resultOf(page)).to.deep.equal({
      status: '400',
      value: { message: 'Invalid input data', errors: [{ field: 'code', message: 'is invalid, expired or already used' }] },
    });
    await page.close();
  });
});
