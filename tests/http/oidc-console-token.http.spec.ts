import { expect } from 'chai';
import * as client from 'openid-client';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { Browser, freePort, registerApp } from '../support/oidc-browser.js';

const PASSWORD = 'correct-horse-battery-staple';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

describe("HTTP: the service's own consoles get the API's access token through the provider (issue 65)", function () {
  this.timeout(60_000);
  let service: TestService;
  let issuer = '';
  let consoles: client.Configuration;
  const email = 'console.token@example.com';
  let userId = '';
  before(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer, RATE_LIMIT_MAX: '10000' });
    userId = (await postJson(service.url, '/auth/sign-up', { name: 'Grace', lastname: 'Hopper', email, password: PASSWORD })).body.data.user.id as string;
    consoles = await client.discovery(new URL(issuer), 'service-consoles', undefined, client.None(), { execute: [client.allowInsecureRequests] });
  });
  after(async () => service.dispose());

  /** The console's flow, as its page script runs it: PKCE, the API as resource, no consent (the service's own). */
  const flow = async (browser: Browser, extra: Record<string, string> = {}) => {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(consoles, {
      redirect_uri: `${issuer}/account/`, scope: 'openid account', resource: `${issuer}/auth`, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state, ...extra,
    });
    const first = await browser.follow(await browser.go(url.href));
    return { verifier, state, first };
  };
  const signIn = async (browser: Browser, html: string) => {
    const page = await browser.submit(html, { email, password: PASSWORD });
    return page;
  };
  const exchange = async (landing: string, verifier: string, state: string) =>
    client.authorizationCodeGrant(consoles, new URL(landing), { pkceCodeVerifier: verifier, expectedState: state }, { resource: `${issuer}/auth` });

  it("hands the console an access token of the API for the session the pages' sign-in opened, marked current in its list", async () => {
    const browser = new Browser(issuer, {}, [`${issuer}/account/`]);
    const { verifier, state, first } = await flow(browser);
    const html = await (first.page as Response).text();
    expect(html, 'the sign-in page').to.include('<label for="password">Password</label>');
    expect(html, "the account console's reset request, for whoever cannot sign in").to.include('<a href="/account/forgot-password">Forgot your password?</a>');
    const back = await signIn(browser, html);
    // No consent (the service's own app): the browser lands on the console's page with a code.
    const redirected = back.url?.href ?? `a page: ${back.page?.status}`;
    expect(redirected.startsWith(`${issuer}/account/?code=`), redirected).to.equal(true);
    const tokens = await exchange(redirected, verifier, state);
    const claims = claimsOf(tokens.access_token);
    expect(claims).to.include({ iss: 'account-service', aud: 'account-service', sub: userId });
    expect(claims['amr']).to.deep.equal(['pwd']);
    expect(claims['sid']).to.be.a('string');
    const me = await http(service.url, '/auth/me', { method: 'GET', headers: bearer(tokens.access_token) });
    expect([me.status, me.body.data?.user?.email ?? me.body.data?.email]).to.deep.equal([200, email]);
    const sessions = await http(service.url, '/auth/sessions', { method: 'GET', headers: bearer(tokens.access_token) });
    const current = (sessions.body.data.sessions as { id: string; current: boolean }[]).filter((session) => session.current);
    expect(current.map((session) => session.id), 'the pages\' session is the current one').to.deep.equal([claims['sid']]);
    // The next visit is silent (the pages' session), the same API session.
    const again = await flow(browser);
    expect(again.first.page, 'no page: signed in at the pages').to.equal(null);
    const second = await exchange((again.first.url as URL).href, again.verifier, again.state);
    expect(claimsOf(second.access_token)['sid']).to.equal(claims['sid']);
    // That session signed out (from the list, on another device): the pages' session no longer stands on a live one.
    const other = (await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).body.data.accesstoken as string;
    const revoked = await http(service.url, `/auth/sessions/${String(claims['sid'])}`, { method: 'DELETE', headers: bearer(other) });
    expect(revoked.status).to.be.oneOf([200, 204]);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(tokens.access_token) })).status).to.equal(401);
    const stale = await flow(browser);
    const refused = await exchange((stale.first.url as URL).href, stale.verifier, stale.state).catch((error: unknown) => error);
    expect((refused as { error?: string }).error, 'the code of a session whose API session ended').to.equal('invalid_grant');
    // Signing in again (prompt=login) ties the pages' session to the new one.
    const fresh = await flow(browser, { prompt: 'login' });
    const relogged = await signIn(browser, await (fresh.first.page as Response).text());
    const renewed = await exchange((relogged.url as URL).href, fresh.verifier, fresh.state);
    const renewedSid = claimsOf(renewed.access_token)['sid'];
    expect(renewedSid).to.be.a('string').and.not.equal(claims['sid']);
    expect((await http(service.url, '/auth/me', { method: 'GET', headers: bearer(renewed.access_token) })).status).to.equal(200);
  });

  it("refuses the API as a resource to any other app, even one of the service's own (invalid_target)", async () => {
    const app = await registerApp(service.dataDir, issuer, ['--name', 'Own app', '--redirect-uri', 'https://own.example.com/cb', '--public', '--first-party']);
    const url = client.buildAuthorizationUrl(app.config, { redirect_uri: 'https://own.example.com/cb', scope: 'openid account', resource: `${issuer}/auth`, code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256' });
    const browser = new Browser(issuer);
    const answer = await browser.follow(await browser.go(url.href));
    expect(answer.url?.searchParams.get('error'), answer.url?.href).to.equal('invalid_target');
  });

  it('ends the console with a sign-out everywhere: the pages ask to sign in again', async () => {
    const browser = new Browser(issuer, {}, [`${issuer}/account/`]);
    const { verifier, state, first } = await flow(browser);
    const back = await signIn(browser, await (first.page as Response).text());
    const tokens = await exchange((back.url as URL).href, verifier, state);
    const everywhere = await postJson(service.url, '/auth/sign-out', { scope: 'global' }, bearer(tokens.access_token));
    expect(everywhere.status).to.equal(204);
    const next = await flow(browser);
    expect(next.first.page?.status, 'the sign-in page again').to.equal(200);
  });
});
