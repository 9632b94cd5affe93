import { webcrypto } from 'node:crypto';
import { expect } from 'chai';
import { calculateJwkThumbprint } from 'jose';
import * as client from 'openid-client';
import { admin } from '../support/api-keys.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { Browser, freePort, headingOf } from '../support/oidc-browser.js';

const APP = 'https://app.example.com/callback';
const PASSWORD = 'correct-horse-battery-staple';
const FORM = 'application/x-www-form-urlencoded';

describe('HTTP: the OpenID provider\'s tokens: DPoP, PAR, introspection and revocation, client authentication, the code\'s lifetime (openid-client)', function () {
  this.timeout(60_000);
  let service: TestService;
  let issuer = '';
  let config: client.Configuration;
  let clientId = '';
  let clientSecret = '';
  let userId = '';
  const email = 'katherine@example.com';
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  /** A form POST to one of the engine's endpoints, as the app authenticates itself (HTTP Basic) unless told otherwise. */
  const post = (path: string, form: Record<string, string>, authorization: string | null = basic(clientId, clientSecret)) =>
    http(service.url, path, { method: 'POST', headers: { 'content-type': FORM, ...(authorization === null ? {} : { authorization }) }, body: new URLSearchParams(form).toString() });
  const introspect = (token: string) => post('/oidc/token/introspection', { token });

  before(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer, RATE_LIMIT_MAX: '10000' });
    userId = (await postJson(service.url, '/auth/sign-up', { name: 'Katherine', lastname: 'Johnson', email, password: PASSWORD })).body.data.user.id as string;
    const made = JSON.parse((await admin(service.dataDir, ['create-client', '--name', 'Ledger', '--redirect-uri', APP])).out[0] ?? '{}') as { client_id: string; client_secret: string };
    [clientId, clientSecret] = [made.client_id, made.client_secret];
    config = await client.discovery(new URL(issuer), clientId, clientSecret, undefined, { execute: [client.allowInsecureRequests] });
  });
  after(async () => service.dispose());

  /** The checks of one authorization request: PKCE, state, nonce, and the request's parameters. */
  const request = async (scope = 'openid email profile', extra: Record<string, string> = {}) => {
    const checks = { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: client.randomState(), expectedNonce: client.randomNonce() };
    const parameters = { redirect_uri: APP, scope, code_challenge: await client.calculatePKCECodeChallenge(checks.pkceCodeVerifier), code_challenge_method: 'S256', state: checks.expectedState, nonce: checks.expectedNonce, ...extra };
    return { checks, parameters };
  };

  /** A fresh browser at `url`: signs in at the sign-in page, allows at the consent page, and ends at the app's redirect. */
  const signInAt = async (url: URL, browser = new Browser(issuer)) => {
    let step = await browser.follow(await browser.go(url.href));
    const headings: string[] = [];
    while (step.page !== null) {
      const html = await step.page.text();
      const heading = headingOf(html);
      headings.push(heading);
      if (heading === 'Sign in') step = await browser.submit(html, { email, password: PASSWORD });
      else if (heading === 'Allow Ledger?') step = await browser.submit(html, { decision: 'allow' });
      else throw new Error(`unexpected page ${step.page.status}: ${heading}`);
    }
    const redirect = step.url as URL;
    expect(`${redirect.origin}${redirect.pathname}`).to.equal(APP);
    return { redirect, headings };
  };

  /** A signed-in flow of this app, code exchanged (by openid-client): the tokens. */
  const tokensFor = async (scope = 'openid email profile', extra: Record<string, string> = {}, options?: client.DPoPOptions) => {
    const { checks, parameters } = await request(scope, extra);
    const { redirect } = await signInAt(client.buildAuthorizationUrl(config, parameters));
    return client.authorizationCodeGrant(config, redirect, checks, undefined, options);
  };

  describe('DPoP (RFC 9449)', () => {
    it('a code exchanged with a proof gets token_type DPoP and a token bound to the key: introspection shows cnf.jkt; userinfo wants the proof', async () => {
      // What the token endpoint answers, as sent (openid-client lowercases token_type).
      const answered: Record<string, unknown>[] = [];
      const dpopConfig = await client.discovery(new URL(issuer), clientId, clientSecret, undefined, { execute: [client.allowInsecureRequests] });
      dpopConfig[client.customFetch] = async (url, options) => {
        const response = await fetch(url, options as RequestInit);
        if (new URL(url).pathname === '/oidc/token') answered.push((await response.clone().json()) as Record<string, unknown>);
        return response;
      };
      const keyPair = await client.randomDPoPKeyPair('ES256');
      const DPoP = client.getDPoPHandle(dpopConfig, keyPair);
      const { checks, parameters } = await request();
      const { redirect } = await signInAt(client.buildAuthorizationUrl(dpopConfig, parameters));
      const tokens = await client.authorizationCodeGrant(dpopConfig, redirect, checks, undefined, { DPoP });
      expect(answered.map((body) => body['token_type'])).to.deep.equal(['DPoP']);
      expect(tokens.token_type).to.equal('dpop');
      const thumbprint = await calculateJwkThumbprint(await webcrypto.subtle.exportKey('jwk', keyPair.publicKey));
      const introspected = await introspect(tokens.access_token);
      expect(introspected.status).to.equal(200);
      expect(introspected.body).to.deep.include({ active: true, sub: userId, client_id: clientId, token_type: 'DPoP' });
      expect(introspected.body.cnf).to.deep.equal({ jkt: thumbprint });
      // The token alone, as a plain Bearer token, is refused: it is worth nothing without the key.
      const bearer = await http(service.url, '/oidc/me', { method: 'GET', headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect([bearer.status, bearer.body?.error]).to.deep.equal([401, 'invalid_token']);
      // With a proof of another key, refused too.
      const stranger = client.getDPoPHandle(dpopConfig, await client.randomDPoPKeyPair('ES256'));
      const stolen = await client.fetchUserInfo(dpopConfig, tokens.access_token, userId, { DPoP: stranger }).catch((error: unknown) => error);
      expect(stolen).to.be.instanceOf(Error);
      expect((stolen as { status?: number }).status).to.equal(401);
      // With a proof of its own key, the claims.
      const info = await client.fetchUserInfo(dpopConfig, tokens.access_token, userId, { DPoP });
      expect(info).to.include({ sub: userId, email, name: 'Katherine Johnson' });
    });

    it('a code exchanged without a proof gets a Bearer token, with no cnf', async () => {
      const tokens = await tokensFor();
      expect(tokens.token_type).to.equal('bearer');
      const introspected = await introspect(tokens.access_token);
      expect(introspected.body).to.deep.include({ active: true, token_type: 'Bearer' });
      expect(introspected.body).to.not.have.property('cnf');
    });
  });

  describe('PAR (RFC 9126)', () => {
    it('a pushed request: the browser comes with its request_uri only, signs in, allows, and the code gives an ID token for the account', async () => {
      // prompt=consent: the account allowed this app in the flows before (consent is the account's), and is asked again.
      const { checks, parameters } = await request('openid email profile', { prompt: 'consent' });
      const url = await client.buildAuthorizationUrlWithPAR(config, parameters);
      expect(url.origin + url.pathname).to.equal(`${issuer}/oidc/auth`);
      expect([...url.searchParams.keys()].sort()).to.deep.equal(['client_id', 'request_uri']);
      expect(url.searchParams.get('request_uri')).to.match(/^urn:ietf:params:oauth:request_uri:/);
      const browser = new Browser(issuer);
      const { redirect, headings } = await signInAt(url, browser);
      expect(headings).to.deep.equal(['Sign in', 'Allow Ledger?']);
      expect([redirect.searchParams.get('state'), redirect.searchParams.get('iss')]).to.deep.equal([checks.expectedState, issuer]);
      const tokens = await client.authorizationCodeGrant(config, redirect, checks);
      expect(tokens.claims()).to.include({ iss: issuer, sub: userId, aud: clientId, email, nonce: checks.expectedNonce });
      // The request_uri is spent with the code it gave: the same address again (in the same browser, signed in and
      // consent given, which would otherwise get a code at once) goes back to the app's one registered redirect URI
      // with error=invalid_request_uri, and no code.
      const again = await browser.go(url.href);
      expect(again.status).to.equal(303);
      const back = new URL(again.headers.get('location') ?? '');
      expect(`${back.origin}${back.pathname}`).to.equal(APP);
      expect(Object.fromEntries(back.searchParams)).to.deep.equal({ error: 'invalid_request_uri', error_description: 'request_uri is invalid, expired, or was already used', iss: issuer });
    });

    it('a pushed request from the wrong client secret is refused (401 invalid_client), and nothing is pushed', async () => {
      const { parameters } = await request();
      const pushed = await post('/oidc/request', { client_id: clientId, response_type: 'code', ...parameters }, basic(clientId, 'not-the-secret'));
      expect([pushed.status, pushed.body?.error, pushed.body?.request_uri]).to.deep.equal([401, 'invalid_client', undefined]);
    });
  });

  describe('introspection (RFC 7662) and revocation (RFC 7009)', () => {
    it('a live access token is active with its sub, client_id and scope; another app cannot revoke it; revoked, it is inactive and userinfo refuses it', async () => {
      const tokens = await tokensFor('openid email');
      const live = await introspect(tokens.access_token);
      expect(live.status).to.equal(200);
      expect(live.body).to.deep.include({ active: true, sub: userId, client_id: clientId, scope: 'openid email' });
      expect(live.body.exp - live.body.iat).to.equal(900);
      expect((await client.fetchUserInfo(config, tokens.access_token, userId)).sub).to.equal(userId);
      const other = JSON.parse((await admin(service.dataDir, ['create-client', '--name', 'Other', '--redirect-uri', APP])).out[0] ?? '{}') as { client_id: string; client_secret: string };
      const notTheirs = await post('/oidc/token/revocation', { token: tokens.access_token }, basic(other.client_id, other.client_secret));
      expect([notTheirs.status, notTheirs.body?.error]).to.deep.equal([400, 'invalid_request']);
      expect((await introspect(tokens.access_token)).body.active, 'still live').to.equal(true);
      const revoked = await post('/oidc/token/revocation', { token: tokens.access_token, token_type_hint: 'access_token' });
      expect(revoked.status).to.equal(200);
      expect((await introspect(tokens.access_token)).body).to.deep.equal({ active: false });
      const refused = await client.fetchUserInfo(config, tokens.access_token, userId).catch((error: unknown) => error);
      expect((refused as { status?: number }).status).to.equal(401);
    });

    it('introspection and revocation want the app authenticated: no credentials is 400, a wrong secret 401, and the token stays live', async () => {
      const tokens = await tokensFor('openid');
      for (const authorization of [null, basic(clientId, 'not-the-secret')]) {
        const peek = await post('/oidc/token/introspection', { token: tokens.access_token }, authorization);
        const expected = authorization === null ? [400, 'invalid_request'] : [401, 'invalid_client'];
        expect([peek.status, peek.body?.error, peek.body?.active], String(authorization)).to.deep.equal([...expected, undefined]);
        const revoke = await post('/oidc/token/revocation', { token: tokens.access_token }, authorization);
        expect([revoke.status, revoke.body?.error], String(authorization)).to.deep.equal(expected);
      }
      expect((await introspect(tokens.access_token)).body.active, 'still live').to.equal(true);
    });

    it('a refresh token (offline_access, prompt=consent) revoked: the refresh grant is invalid_grant', async () => {
      const tokens = await tokensFor('openid offline_access', { prompt: 'consent' });
      const refreshToken = tokens.refresh_token as string;
      expect(refreshToken).to.be.a('string');
      const live = await introspect(refreshToken);
      expect(live.body).to.deep.include({ active: true, sub: userId, client_id: clientId, scope: 'openid offline_access' });
      const revoked = await post('/oidc/token/revocation', { token: refreshToken, token_type_hint: 'refresh_token' });
      expect(revoked.status).to.equal(200);
      expect((await introspect(refreshToken)).body).to.deep.equal({ active: false });
      const refreshed = await client.refreshTokenGrant(config, refreshToken).catch((error: unknown) => error);
      expect((refreshed as { error?: string }).error).to.equal('invalid_grant');
    });
  });

  describe('client authentication at the token endpoint', () => {
    /** A code of this app's, and the exchange's form (without credentials). */
    const codeExchange = async () => {
      const { checks, parameters } = await request('openid');
      const { redirect } = await signInAt(client.buildAuthorizationUrl(config, parameters));
      return { grant_type: 'authorization_code', code: redirect.searchParams.get('code') ?? '', redirect_uri: APP, code_verifier: checks.pkceCodeVerifier };
    };

    it('an unknown client_id and a wrong secret are both 401 invalid_client, and the code is still good for its own app', async () => {
      const form = await codeExchange();
      const unknown = await post('/oidc/token', form, basic('nobody-at-all', clientSecret));
      expect([unknown.status, unknown.body?.error]).to.deep.equal([401, 'invalid_client']);
      const wrong = await post('/oidc/token', form, basic(clientId, `${clientSecret}x`));
      expect([wrong.status, wrong.body?.error]).to.deep.equal([401, 'invalid_client']);
      const wrongPost = await post('/oidc/token', { ...form, client_id: clientId, client_secret: 'not-the-secret' }, null);
      expect([wrongPost.status, wrongPost.body?.error]).to.deep.equal([401, 'invalid_client']);
      const right = await post('/oidc/token', form);
      expect([right.status, right.body?.token_type]).to.deep.equal([200, 'Bearer']);
    });

    it('client_secret_post: the secret in the body, no Authorization header, gets the tokens', async () => {
      const sent: { authorization: boolean; secretInBody: boolean }[] = [];
      const posting = await client.discovery(new URL(issuer), clientId, clientSecret, client.ClientSecretPost(), { execute: [client.allowInsecureRequests] });
      posting[client.customFetch] = (url, options) => {
        if (new URL(url).pathname === '/oidc/token') {
          const headers = new Headers(options.headers);
          const body = options.body instanceof URLSearchParams ? options.body : new URLSearchParams(typeof options.body === 'string' ? options.body : '');
          sent.push({ authorization: headers.has('authorization'), secretInBody: body.get('client_secret') === clientSecret });
        }
        return fetch(url, options as RequestInit);
      };
      const { checks, parameters } = await request('openid email');
      const { redirect } = await signInAt(client.buildAuthorizationUrl(posting, parameters));
      const tokens = await client.authorizationCodeGrant(posting, redirect, checks);
      expect(sent).to.deep.equal([{ authorization: false, secretInBody: true }]);
      expect(tokens.claims()).to.include({ sub: userId, aud: clientId, email });
    });
  });

  describe('the authorization code\'s lifetime (60 s)', () => {
    /**
     * The service runs in this process, and the engine reads its clock (Date.now) on each request: the clock is moved
     * forward for one exchange instead of waiting. (The store's own expiry check keeps the real clock: this exercises
     * the engine's, which is the one configured with the 60 s.)
     */
    const exchangedAfter = async (seconds: number) => {
      const form = await (async () => {
        const { checks, parameters } = await request('openid');
        const { redirect } = await signInAt(client.buildAuthorizationUrl(config, parameters));
        return { grant_type: 'authorization_code', code: redirect.searchParams.get('code') ?? '', redirect_uri: APP, code_verifier: checks.pkceCodeVerifier };
      })();
      // An offset read on each call, back to 0 after: whatever kept a reference to the moved clock is on time again.
      const realNow = Date.now;
      const shift = { ms: seconds * 1000 };
      Date.now = () => realNow() + shift.ms;
      try {
        return await post('/oidc/token', form);
      } finally {
        shift.ms = 0;
        Date.now = realNow;
      }
    };

    it('a code 55 s old is still exchanged; one 61 s old is invalid_grant (expired)', async () => {
      const young = await exchangedAfter(55);
      expect([young.status, young.body?.token_type]).to.deep.equal([200, 'Bearer']);
      const old = await exchangedAfter(61);
      expect([old.status, old.body?.error]).to.deep.equal([400, 'invalid_grant']);
    });
  });
});
