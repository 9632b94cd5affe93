import { expect } from 'chai';
import * as client from 'openid-client';
import { CAPABILITIES } from '../../src/capabilities/index.js';
import { oidcProvider } from '../../src/capabilities/oidc-provider.js';
import type { ServiceCapability } from '../../src/main.js';
import { http, postJson } from '../support/http-client.js';
import { Browser, freePort, headingOf, registerApp } from '../support/oidc-browser.js';
import { type TestService, startTestService } from '../support/test-service.js';

const APP = 'https://app.example.com/callback';
const PASSWORD = 'correct-horse-battery-staple';

/**
 * The OpenID provider is one capability: its line in src/capabilities/index.ts (and its dependency) is all that adds
 * it. Composed without it the service has no provider and nothing else changes; composed with no other capability
 * the provider signs people in with a password alone (the other capabilities' ways in are optional to it).
 */
describe('Composition: the OpenID provider comes and goes with its one line (issue 64)', function () {
  this.timeout(60_000);
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    service = undefined;
  });

  it('without it: no provider, no pages, the API as before', async () => {
    const others = CAPABILITIES.filter((capability) => capability.name !== 'oidc-provider') as unknown as ServiceCapability[];
    service = await startTestService({}, { capabilities: others });
    expect((await http(service.url, '/.well-known/openid-configuration', { method: 'GET' })).status).to.equal(404);
    expect((await http(service.url, '/oidc/auth', { method: 'GET' })).status).to.equal(404);
    // The consoles sign in through the provider: without it, the mailed links' pages alone.
    expect((await http(service.url, '/account/sessions', { method: 'GET' })).status, 'the account console').to.equal(404);
    expect((await http(service.url, '/console/', { method: 'GET' })).status, 'the admin console').to.equal(404);
    expect((await http(service.url, '/account/reset-password', { method: 'GET' })).status, "a mailed link's page").to.equal(200);
    expect((await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: PASSWORD })).status).to.equal(201);
  });

  it('alone (no second factor, passkeys or social sign-in): a password sign-in at its pages, no other way offered', async () => {
    const port = await freePort();
    const issuer = `http://localhost:${port}`;
    service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer }, { capabilities: [oidcProvider] });
    await postJson(service.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: PASSWORD });
    const { config } = await registerApp(service.dataDir, issuer, ['--name', 'Notebook', '--redirect-uri', APP, '--first-party']);
    const verifier = client.randomPKCECodeVerifier();
    const browser = new Browser(issuer);
    const url = client.buildAuthorizationUrl(config, { redirect_uri: APP, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
    const html = await ((await browser.follow(await browser.go(url.href))).page as Response).text();
    expect(headingOf(html)).to.equal('Sign in');
    expect(html).to.not.include('passkey').and.not.include('Sign in with ').and.not.include('Forgot your password?');
    const back = await browser.submit(html, { email: 'ada@example.com', password: PASSWORD });
    const tokens = await client.authorizationCodeGrant(config, back.url as URL, { pkceCodeVerifier: verifier, expectedState: 'st' });
    expect(tokens.claims()).to.include({ email: 'ada@example.com' });
  });
});
