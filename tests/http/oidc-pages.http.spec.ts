import { expect } from 'chai';
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import { configFailure } from '../support/config-failure.js';
import { admin } from '../support/api-keys.js';
import { startOidcTestProvider } from '../support/oidc-test-provider.js';
import { http, postJson } from '../support/http-client.js';
import { LmdbStore } from '../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbTables } from '../../src/infrastructure/lmdb/lmdb-tables.js';
import { OIDC_ACCOUNT_STATE } from '../../src/infrastructure/oidc-provider/oidc-tables.js';
import { rmSync } from 'node:fs';
import { Browser, freePort, registerApp } from '../support/oidc-browser.js';
import { type TestService, startTestService, tempDir } from '../support/test-service.js';

const APP = 'https://app.example.com/callback';
const LOGO = 'https://cdn.example.com/acme.svg';
const PASSWORD = 'correct-horse-battery-staple';

/** The sign-in page a new browser reaches for `app`. */
const signInPageOf = async (issuer: string, app: client.Configuration) => {
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(app, { redirect_uri: APP, scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
  const browser = new Browser(issuer);
  return (await browser.follow(await browser.go(url.href))).page as Response;
};

describe("HTTP: the OpenID provider's pages: branding by settings, the passkey button where passkeys serve them (issue 64)", function () {
  this.timeout(60_000);

  describe('branded, with passkeys on the pages\' origin', () => {
    let service: TestService;
    let issuer = '';
    let app: client.Configuration;
    before(async () => {
      const port = await freePort();
      issuer = `http://localhost:${port}`;
      service = await startTestService({
        PORT: String(port),
        PUBLIC_API_URL: issuer,
        PAGES_NAME: 'Acme ID',
        PAGES_LOGO_URL: LOGO,
        PAGES_ACCENT_COLOR: '#6a1b9a',
        WEBAUTHN_RP_ID: 'localhost',
        WEBAUTHN_ORIGINS: `http://localhost:5173,${issuer}`,
      });
      app = (await registerApp(service.dataDir, issuer, ['--name', 'Notebook', '--redirect-uri', APP])).config;
    });
    after(async () => service.dispose());

    it("shows the service's name and logo in its colours, and its policy allows the logo's origin and that one style only", async () => {
      const page = await signInPageOf(issuer, app);
      const html = await page.text();
      expect(html).to.include('<header><img src="https://cdn.example.com/acme.svg" alt=""><span>Acme ID</span></header>').and.include('<title>Sign in to Notebook · Acme ID</title>');
      const style = /<style>([^<]*)<\/style>/.exec(html)?.[1] ?? '';
      expect(style).to.include('background:#6a1b9a');
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).to.include(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`).and.include('img-src https://cdn.example.com;').and.include("frame-ancestors 'none'").and.not.include('unsafe-inline');
    });

    it('offers Sign in with a passkey, its one script from the service itself; a made-up answer is refused as a wrong password is', async () => {
      const page = await signInPageOf(issuer, app);
      const html = await page.text();
      expect(html).to.include('>Sign in with a passkey</button>').and.include('<script src="/oidc/assets/passkey.js" defer></script>');
      expect(html.match(/<script/g)?.length, 'one script').to.equal(1);
      expect(page.headers.get('content-security-policy')).to.include("script-src 'self'");
      const script = await fetch(`${issuer}/oidc/assets/passkey.js`);
      const body = await script.text();
      expect([script.status, script.headers.get('content-type')]).to.deep.equal([200, 'text/javascript; charset=utf-8']);
      expect(Buffer.byteLength(body), 'well under 30 KB').to.be.below(4096);
      expect(body).to.include('parseRequestOptionsFromJSON').and.include('form.submit()').and.not.include('localStorage');
      // A made-up answer, a body that is not JSON, and a post without the form's token, in the flow's own browser.
      const verifier = client.randomPKCECodeVerifier();
      const own = new Browser(issuer);
      const url = client.buildAuthorizationUrl(app, { redirect_uri: APP, scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
      const ownHtml = await ((await own.follow(await own.go(url.href))).page as Response).text();
      const ownForm = /<form id="passkey-form" method="post" action="([^"]+)"><input type="hidden" name="csrf" value="([^"]+)">/.exec(ownHtml);
      const refused = await own.go(ownForm?.[1] ?? '', { method: 'POST', form: { csrf: ownForm?.[2] ?? '', response: JSON.stringify({ id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' } }) } });
      expect(refused.status).to.equal(401);
      expect(await refused.text()).to.include('That passkey was not accepted.');
      const garbage = await own.go(ownForm?.[1] ?? '', { method: 'POST', form: { csrf: ownForm?.[2] ?? '', response: 'not json' } });
      expect(garbage.status, 'not JSON: refused, never a 500').to.equal(401);
      const noToken = await own.go(ownForm?.[1] ?? '', { method: 'POST', form: { response: '{}' } });
      expect(noToken.status, 'without the CSRF token').to.equal(403);
    });
  });

  it('shows no passkey button where passkeys are not for the pages\' origin', async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    // The passkeys' origin is the app's (PUBLIC_APP_URL's), not the pages'.
    const service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer, PUBLIC_APP_URL: 'https://app.example.com' });
    try {
      const { config } = await registerApp(service.dataDir, issuer, ['--name', 'Notebook', '--redirect-uri', APP]);
      const html = await (await signInPageOf(issuer, config)).text();
      expect(html).to.include('<label for="email">Email</label>').and.not.include('passkey').and.not.include('<script').and.not.include('Sign in with ');
      expect(html).to.include('<span>Account service</span>');
      expect((await postJson(service.url, '/auth/sign-in', { email: 'x@example.com', password: 'y' })).status, 'the API as before').to.equal(401);
    } finally {
      await service.dispose();
    }
  });

  it("erases the provider's state of an account with the account (its session at the pages, grants, tokens), and no other's", async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const dataDir = tempDir('oidc-erase');
    const service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer, STORAGE: 'lmdb', DATA_DIR: dataDir, RATE_LIMIT_MAX: '10000' });
    const ids: Record<string, string> = {};
    try {
      const { config } = await registerApp(service.dataDir, issuer, ['--name', 'Notebook', '--redirect-uri', APP, '--first-party']);
      for (const who of ['leaving', 'staying']) {
        const up = await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email: `${who}@example.com`, password: PASSWORD });
        ids[who] = up.body.data.user.id as string;
        const browser = new Browser(issuer);
        const verifier = client.randomPKCECodeVerifier();
        const url = client.buildAuthorizationUrl(config, { redirect_uri: APP, scope: 'openid offline_access', prompt: 'consent', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
        const page = (await browser.follow(await browser.go(url.href))).page as Response;
        const back = await browser.submit(await page.text(), { email: `${who}@example.com`, password: PASSWORD });
        await client.authorizationCodeGrant(config, back.url as URL, { pkceCodeVerifier: verifier, expectedState: 'st' });
        if (who === 'leaving') {
          const deleted = await http(service.url, '/auth/me', { method: 'DELETE', body: { currentpassword: PASSWORD }, headers: { authorization: `Bearer ${up.body.data.accesstoken as string}`, 'content-type': 'application/json' } });
          expect(deleted.status).to.equal(204);
        }
      }
    } finally {
      await service.close();
    }
    const store = LmdbStore.open(dataDir);
    try {
      const tables = new LmdbTables(store);
      const count = (id: string) => tables.count(OIDC_ACCOUNT_STATE, 'byAccount', [id]);
      expect(await count(ids['staying'] ?? ''), 'a session, a grant, a refresh token and an access token of the account that stays').to.be.at.least(4);
      expect(await count(ids['leaving'] ?? ''), 'nothing of the deleted account').to.equal(0);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('behind an HTTPS proxy its cookies are Secure, HttpOnly and SameSite=Lax; over plain http it says where it answers', async () => {
    const port = await freePort();
    const issuer = 'https://id.example.com';
    const service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer, TRUST_PROXY: 'true' });
    try {
      const { client_id: clientId } = JSON.parse((await admin(service.dataDir, ['create-client', '--name', 'Notebook', '--redirect-uri', APP])).out[0] ?? '{}') as { client_id: string };
      const query = new URLSearchParams({ client_id: clientId, redirect_uri: APP, response_type: 'code', scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: 'st' });
      const answer = await fetch(`${service.url}/oidc/auth?${query.toString()}`, { redirect: 'manual', headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'id.example.com' } });
      expect(answer.status).to.equal(303);
      expect(answer.headers.get('location')).to.match(/^\/oidc\/interaction\//);
      const cookies = answer.headers.getSetCookie().filter((cookie) => !/expires=thu, 01 jan 1970/i.test(cookie));
      expect(cookies.length).to.be.at.least(1);
      for (const cookie of cookies) expect(cookie.toLowerCase(), cookie).to.include('; secure').and.include('; httponly').and.include('; samesite=lax');
      // Reached over plain http (no X-Forwarded-Proto): told where the provider answers, never a 500.
      const plain = await fetch(`${service.url}/oidc/auth?${query.toString()}`, { redirect: 'manual' });
      expect([plain.status, await plain.text()]).to.deep.equal([421, 'The sign-in service answers at https://id.example.com over HTTPS only (behind a proxy: set TRUST_PROXY, and X-Forwarded-Proto at the proxy).']);
    } finally {
      await service.dispose();
    }
  });

  it('offers a button per social provider; the flow comes back to the pages and signs in with amr oauth; a made-up code is refused', async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const corp = await startOidcTestProvider({ redirectUris: [`${issuer}/auth/oauth/corp/callback`] });
    const service = await startTestService({
      PORT: String(port),
      PUBLIC_API_URL: issuer,
      RATE_LIMIT_MAX: '10000',
      OAUTH_PROVIDERS: 'corp',
      OAUTH_REDIRECT_URLS: `${issuer}/oidc/social-return`,
      OAUTH_CORP_ISSUER: corp.issuer,
      OAUTH_CORP_CLIENT_ID: corp.clientId,
      OAUTH_CORP_CLIENT_SECRET: corp.clientSecret,
    });
    try {
      const { config } = await registerApp(service.dataDir, issuer, ['--name', 'Notebook', '--redirect-uri', APP, '--first-party']);
      corp.setAccount('corp-ada', { email: 'ada.social@example.com', email_verified: true, given_name: 'Ada', family_name: 'Lovelace' });
      /** The app's flow, the *Sign in with Corp* button, Corp's sign-in of `sub`, and the way back to the pages. */
      const throughCorp = async (sub: string) => {
        const browser = new Browser(issuer);
        const verifier = client.randomPKCECodeVerifier();
        const url = client.buildAuthorizationUrl(config, { redirect_uri: APP, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
        const html = await ((await browser.follow(await browser.go(url.href))).page as Response).text();
        const button = /<a class="button secondary" href="([^"]+)">Sign in with Corp<\/a>/.exec(html)?.[1];
        expect(button, 'the button').to.be.a('string');
        const toCorp = await browser.follow(await browser.go(button ?? ''));
        const back = await corp.signIn((toCorp.url as URL).href, sub);
        return { browser, verifier, landed: await browser.follow(await browser.go(back.href)) };
      };
      const { verifier, landed } = await throughCorp('corp-ada');
      expect(landed.url?.searchParams.get('code'), 'a first-party app: back with a code').to.be.a('string');
      const tokens = await client.authorizationCodeGrant(config, landed.url as URL, { pkceCodeVerifier: verifier, expectedState: 'st' });
      expect(tokens.claims()).to.include({ email: 'ada.social@example.com' });
      expect(tokens.claims()?.['amr']).to.deep.equal(['oauth']);
      // A code nobody issued, at the way back: refused on the sign-in page, never a 500, no code to the app.
      const stranger = new Browser(issuer);
      const url = client.buildAuthorizationUrl(config, { redirect_uri: APP, scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
      const signInPage = (await stranger.follow(await stranger.go(url.href))).page as Response;
      const interaction = new URL(signInPage.url).pathname;
      const forged = await stranger.go(`${interaction}/social-done?code=made-up`);
      expect([forged.status, /<p role="alert">([^<]*)/.exec(await forged.text())?.[1]]).to.deep.equal([401, 'That sign-in did not complete. Try again, or sign in with your e-mail and password.']);
      const unknown = await stranger.go(`${interaction}/social/elsewhere`);
      expect(unknown.status, 'a provider not configured').to.equal(404);
    } finally {
      await service.dispose();
      await corp.close();
    }
  });

  it('refuses at start colours people could not read, saying each with its contrast', () => {
    const message = configFailure({ PAGES_ACCENT_COLOR: '#ffcc00', PAGES_TEXT_COLOR: '#777777', PAGES_BACKGROUND_COLOR: '#888888'});
    expect(message).to.include('PAGES_ACCENT_COLOR #ffcc00 reads at').and.include('PAGES_TEXT_COLOR #777777 on PAGES_BACKGROUND_COLOR #888888');
    expect(configFailure({ PAGES_LOGO_URL: 'javascript:alert(1)' })).to.include('PAGES_LOGO_URL must be an https URL');
  });
});
