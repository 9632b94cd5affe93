import { expect } from 'chai';
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import { configFailure } from '../support/config-failure.js';
import { postJson } from '../support/http-client.js';
import { Browser, freePort, registerApp } from '../support/oidc-browser.js';
import { type TestService, startTestService } from '../support/test-service.js';

const APP = 'https://app.example.com/callback';
const LOGO = 'https://cdn.example.com/acme.svg';

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
        OIDC_PAGES_NAME: 'Acme ID',
        OIDC_PAGES_LOGO_URL: LOGO,
        OIDC_PAGES_ACCENT_COLOR: '#6a1b9a',
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
    const service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer });
    try {
      const { config } = await registerApp(service.dataDir, issuer, ['--name', 'Notebook', '--redirect-uri', APP]);
      const html = await (await signInPageOf(issuer, config)).text();
      expect(html).to.include('<label for="email">Email</label>').and.not.include('passkey').and.not.include('<script');
      expect(html).to.include('<span>Account service</span>');
      expect((await postJson(service.url, '/auth/sign-in', { email: 'x@example.com', password: 'y' })).status, 'the API as before').to.equal(401);
    } finally {
      await service.dispose();
    }
  });

  it('refuses at start colours people could not read, saying each with its contrast', () => {
    const message = configFailure({ OIDC_PAGES_ACCENT_COLOR: '#ffcc00', OIDC_PAGES_TEXT_COLOR: '#777777', OIDC_PAGES_BACKGROUND_COLOR: '#888888'});
    expect(message).to.include('OIDC_PAGES_ACCENT_COLOR #ffcc00 reads at').and.include('OIDC_PAGES_TEXT_COLOR #777777 on OIDC_PAGES_BACKGROUND_COLOR #888888');
    expect(configFailure({ OIDC_PAGES_LOGO_URL: 'javascript:alert(1)' })).to.include('OIDC_PAGES_LOGO_URL must be an https URL');
  });
});
