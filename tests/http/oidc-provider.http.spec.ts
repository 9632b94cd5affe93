import { expect } from 'chai';
import { createServer } from 'node:net';
import * as client from 'openid-client';
import { admin } from '../support/api-keys.js';
import { http } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

/** A port free on loopback now: the issuer must name the port the service listens on. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

describe('HTTP: the service as an OpenID Provider, its metadata and its refusals (issue 64)', function () {
  this.timeout(60_000);
  let service: TestService;
  let issuer = '';
  before(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer });
  });
  after(async () => service.dispose());

  const metadata = async (path: string) => (await http(service.url, path, { method: 'GET' })).body as Record<string, unknown>;

  it('publishes its metadata at both well-known paths, with PUBLIC_API_URL as the issuer, exactly', async () => {
    const oidc = await metadata('/.well-known/openid-configuration');
    const oauth = await metadata('/.well-known/oauth-authorization-server');
    expect(oidc['issuer']).to.equal(issuer);
    expect(oauth).to.deep.equal(oidc);
    for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri', 'end_session_endpoint', 'revocation_endpoint', 'introspection_endpoint', 'pushed_authorization_request_endpoint', 'device_authorization_endpoint']) {
      expect(oidc[endpoint], endpoint).to.be.a('string').and.satisfy((url: string) => url.startsWith(`${issuer}/oidc/`));
    }
    expect(oidc['code_challenge_methods_supported']).to.deep.equal(['S256']);
    expect(oidc['acr_values_supported']).to.deep.equal(['aal1', 'aal2']);
    expect(oidc['response_types_supported']).to.include('code');
    expect(oidc['grant_types_supported']).to.include.members(['authorization_code', 'refresh_token']);
    expect(oidc['scopes_supported']).to.include.members(['openid', 'email', 'profile', 'offline_access']);
    expect(oidc['authorization_response_iss_parameter_supported']).to.equal(true);
    expect(oidc['dpop_signing_alg_values_supported']).to.be.an('array').that.includes('ES256');
    expect(oidc['id_token_signing_alg_values_supported']).to.deep.equal(['ES256']);
    expect(oidc['token_endpoint_auth_methods_supported']).to.include.members(['client_secret_basic', 'client_secret_post']);
  });

  it('signs with the service key: its JWKS is the key of /.well-known/jwks.json, never a private member', async () => {
    const oidc = await metadata('/.well-known/openid-configuration');
    const engine = (await http(service.url, new URL(String(oidc['jwks_uri'])).pathname, { method: 'GET' })).body as { keys: Record<string, unknown>[] };
    const service_ = (await metadata('/.well-known/jwks.json')) as { keys: Record<string, unknown>[] };
    expect(engine.keys.map((key) => key['kid'])).to.include(service_.keys[0]?.['kid']);
    for (const key of engine.keys) expect(key).to.not.have.property('d');
  });

  it('is discovered by openid-client, the relying party library, as is', async () => {
    const config = await client.discovery(new URL(issuer), 'nobody', undefined, undefined, { execute: [client.allowInsecureRequests] });
    expect(config.serverMetadata().issuer).to.equal(issuer);
    expect(config.serverMetadata().supportsPKCE()).to.equal(true);
  });

  it('answers an unknown client with an error page (4xx), never a redirect, and its token request with invalid_client (401)', async () => {
    const query = new URLSearchParams({ client_id: 'nobody', redirect_uri: 'https://evil.example.com/cb', response_type: 'code', scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: 's1' });
    const authorize = await http(service.url, `/oidc/auth?${query.toString()}`, { method: 'GET' });
    expect(authorize.status).to.be.within(400, 499);
    expect(authorize.headers['location']).to.equal(undefined);
    expect(authorize.text).to.include('This sign-in cannot go on').and.include('invalid_client').and.not.include('<script');
    const token = await http(service.url, '/oidc/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('nobody:wrong').toString('base64')}` },
      body: 'grant_type=authorization_code&code=abc&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    });
    expect([token.status, token.body.error]).to.deep.equal([401, 'invalid_client']);
  });

  describe('its clients, registered by an operator (npm run admin)', () => {
    const APP = 'https://app.example.com/callback';
    const authorizeWith = (clientId: string, redirectUri = APP) =>
      http(service.url, `/oidc/auth?${new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'openid email', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: 'st-1' }).toString()}`, { method: 'GET' });
    const tokenWith = (clientId: string, secret: string) =>
      http(service.url, '/oidc/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}` },
        body: `grant_type=authorization_code&code=unknown&redirect_uri=${encodeURIComponent(APP)}&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk`,
      });

    it('create-client prints the client_id and its secret once; list-clients shows it, never a secret; the provider knows it', async () => {
      const made = await admin(service.dataDir, ['create-client', '--name', 'Billing', '--redirect-uri', APP, '--redirect-uri=https://app.example.com/other']);
      expect(made.code, made.err.join('\n')).to.equal(0);
      const client = JSON.parse(made.out[0] ?? '{}') as Record<string, unknown>;
      expect(client).to.include({ name: 'Billing', public: false, first_party: false });
      expect(client['redirect_uris']).to.deep.equal([APP, 'https://app.example.com/other']);
      expect(client['client_id']).to.be.a('string').with.length.above(15);
      expect(client['client_secret']).to.be.a('string').with.length.above(30);
      const listed = await admin(service.dataDir, ['list-clients']);
      const clients = JSON.parse(listed.out[0] ?? '[]') as Record<string, unknown>[];
      expect(clients.map((each) => each['client_id'])).to.include(client['client_id']);
      expect(listed.out.join('')).to.not.include(String(client['client_secret']));
      // Known: the authorization request goes on to the sign-in (a redirect to the interaction), not to an error page.
      const authorize = await authorizeWith(String(client['client_id']));
      expect(authorize.status).to.equal(303);
      expect(String(authorize.headers['location'])).to.match(/^\/oidc\/interaction\//);
      // Its secret authenticates it: a wrong one is invalid_client, the right one gets as far as the code (unknown here).
      expect((await tokenWith(String(client['client_id']), 'wrong')).body.error).to.equal('invalid_client');
      expect((await tokenWith(String(client['client_id']), String(client['client_secret']))).body.error).to.equal('invalid_grant');
      // client_secret_post as well as client_secret_basic: the secret in the body authenticates it too.
      const posted = await http(service.url, '/oidc/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'unknown', redirect_uri: APP, code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', client_id: String(client['client_id']), client_secret: String(client['client_secret']) }).toString(),
      });
      expect(posted.body.error).to.equal('invalid_grant');
      const postedWrong = await http(service.url, '/oidc/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'unknown', redirect_uri: APP, code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', client_id: String(client['client_id']), client_secret: 'wrong' }).toString(),
      });
      expect([postedWrong.status, postedWrong.body.error]).to.deep.equal([401, 'invalid_client']);
    });

    it('requires PKCE with S256 of every client: none, or plain, goes back to the app as invalid_request', async () => {
      const made = JSON.parse((await admin(service.dataDir, ['create-client', '--name', 'Strict', '--redirect-uri', APP])).out[0] ?? '{}') as Record<string, unknown>;
      const ask = (extra: Record<string, string>) =>
        http(service.url, `/oidc/auth?${new URLSearchParams({ client_id: String(made['client_id']), redirect_uri: APP, response_type: 'code', scope: 'openid', state: 'st-2', ...extra }).toString()}`, { method: 'GET' });
      for (const [label, extra] of [['no challenge', {}], ['plain', { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }]] as const) {
        const refused = await ask(extra);
        const back = new URL(String(refused.headers['location']));
        expect(`${back.origin}${back.pathname}`, label).to.equal(APP);
        expect([back.searchParams.get('error'), back.searchParams.get('state'), back.searchParams.get('iss')], label).to.deep.equal(['invalid_request', 'st-2', issuer]);
        expect(back.searchParams.get('code'), label).to.equal(null);
      }
    });

    it('refuses a redirect URI the client did not register with an error page, never a redirect', async () => {
      const made = JSON.parse((await admin(service.dataDir, ['create-client', '--name', 'Shop', '--redirect-uri', APP])).out[0] ?? '{}') as Record<string, unknown>;
      const refused = await authorizeWith(String(made['client_id']), 'https://app.example.com/callback/../evil');
      expect(refused.status).to.be.within(400, 499);
      expect(refused.headers['location']).to.equal(undefined);
    });

    it('a public client has no secret; remove-client ends it; usage and metadata errors are refused before anything is kept', async () => {
      const made = await admin(service.dataDir, ['create-client', '--name', 'CLI', '--redirect-uri', 'http://127.0.0.1:8765/callback', '--public', '--grant', 'device']);
      const client = JSON.parse(made.out[0] ?? '{}') as Record<string, unknown>;
      expect(client).to.include({ public: true }).and.not.have.property('client_secret');
      expect(client['grant_types']).to.include('urn:ietf:params:oauth:grant-type:device_code');
      const removed = await admin(service.dataDir, ['remove-client', String(client['client_id'])]);
      expect([removed.code, JSON.parse(removed.out[0] ?? '{}')]).to.deep.equal([0, { removed: client['client_id'] }]);
      expect((await authorizeWith(String(client['client_id']), 'http://127.0.0.1:8765/callback')).status).to.be.within(400, 499);
      expect((await admin(service.dataDir, ['remove-client', String(client['client_id'])])).code, 'gone already').to.equal(1);
      const before = (await admin(service.dataDir, ['list-clients'])).out[0];
      expect((await admin(service.dataDir, ['create-client', '--name', 'No redirect'])).code, 'a required option missing').to.equal(2);
      expect((await admin(service.dataDir, ['create-client', '--name', 'X', '--redirect-uri', APP, '--grant', 'password'])).code, 'a grant not offered').to.equal(2);
      const bad = await admin(service.dataDir, ['create-client', '--name', 'Bad', '--redirect-uri', 'not a url']);
      expect([bad.code, bad.out]).to.deep.equal([1, []]);
      expect(bad.err.join('\n')).to.match(/redirect/i);
      expect((await admin(service.dataDir, ['list-clients'])).out[0], 'nothing kept').to.equal(before);
    });
  });
});
