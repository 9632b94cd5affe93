import { expect } from 'chai';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import { http, postJson } from '../support/http-client.js';
import { Browser, freePort, headingOf, registerApp } from '../support/oidc-browser.js';
import { type TestService, startTestService } from '../support/test-service.js';

const ROOT = join(import.meta.dirname, '..', '..');
const APP = 'http://127.0.0.1:7777/callback';
const PASSWORD = 'correct-horse-battery-staple';
const PER_HOUR = 3;

/** docs/examples/mcp-resource-server.mjs, run as the docs say, until it says it listens. */
const startMcpServer = async (env: Record<string, string>): Promise<ChildProcess> => {
  const child = spawn(process.execPath, [join(ROOT, 'docs', 'examples', 'mcp-resource-server.mjs')], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [first] = (await Promise.race([once(child.stdout, 'data'), once(child, 'exit').then(() => [Buffer.from(`exited: ${output}`)])])) as [Buffer];
  if (!first.toString().includes('MCP server on')) throw new Error(first.toString());
  return child;
};

describe('HTTP: tokens for an API or an MCP server (RFC 8707, RFC 9068), apps registering themselves (RFC 7591) (issue 64)', function () {
  this.timeout(60_000);
  let service: TestService;
  let mcp: ChildProcess;
  let issuer = '';
  let resource = '';
  let userId = '';
  const email = 'agent.owner@example.com';
  before(async () => {
    const [port, mcpPort] = [await freePort(), await freePort()];
    issuer = `http://127.0.0.1:${port}`;
    resource = `http://127.0.0.1:${mcpPort}/mcp`;
    service = await startTestService({
      PORT: String(port),
      PUBLIC_API_URL: issuer,
      OIDC_RESOURCES: `${resource} mcp:tools, https://api.example.com/ orders:read`,
      OIDC_DYNAMIC_REGISTRATION: 'true',
      OIDC_REGISTRATIONS_PER_HOUR: String(PER_HOUR),
    });
    userId = (await postJson(service.url, '/auth/sign-up', { name: 'Grace', lastname: 'Hopper', email, password: PASSWORD })).body.data.user.id as string;
    mcp = await startMcpServer({ ISSUER: issuer, RESOURCE: resource, PORT: String(mcpPort) });
  });
  after(async () => {
    mcp?.kill();
    await service.dispose();
  });

  const register = (body: Record<string, unknown>) => http(service.url, '/oidc/reg', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const AGENT = { client_name: 'Research agent', redirect_uris: [APP], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };

  it('lets an app register itself (a public client, no secret), never as first-party, and counts registrations per address exactly under concurrency', async () => {
    const metadata = (await http(service.url, '/.well-known/oauth-authorization-server', { method: 'GET' })).body;
    expect(metadata.registration_endpoint).to.equal(`${issuer}/oidc/reg`);
    const firstParty = await register({ ...AGENT, first_party: true });
    expect([firstParty.status, firstParty.body.error]).to.deep.equal([400, 'invalid_client_metadata']);
    const answers = await Promise.all(Array.from({ length: PER_HOUR + 3 }, () => register(AGENT)));
    const statuses = answers.map((answer) => answer.status).sort();
    // The refused first-party attempt counted too: a registration is counted when it is asked.
    expect(statuses).to.deep.equal([...Array.from({ length: PER_HOUR - 1 }, () => 201), ...Array.from({ length: 4 }, () => 429)]);
    const made = answers.find((answer) => answer.status === 201)?.body;
    expect(made.client_id).to.be.a('string');
    expect(made.client_secret, 'a public client has no secret').to.equal(undefined);
    expect(made.first_party).to.not.equal(true);
    const refused = answers.find((answer) => answer.status === 429);
    expect(Number(refused?.headers['retry-after'])).to.be.within(1, 3600);
    expect(refused?.body.error).to.equal('too_many_requests');
  });

  /** A signed-in flow of `app` for `parameters` (scope, resource…): the browser signs in, allows, and lands on the app's address. */
  const flow = async (app: client.Configuration, parameters: Record<string, string>, browser = new Browser(issuer)) => {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(app, { redirect_uri: APP, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st', ...parameters });
    let step = await browser.follow(await browser.go(url.href));
    const pages: string[] = [];
    while (step.page !== null) {
      const html = await step.page.text();
      pages.push(html);
      step = headingOf(html) === 'Sign in' ? await browser.submit(html, { email, password: PASSWORD }) : await browser.submit(html, { decision: 'allow' });
    }
    return { verifier, redirect: step.url as URL, pages };
  };

  it('gives an app an access token for the MCP server alone: a JWT (at+jwt, ES256) the server checks with the JWKS; consent names it', async () => {
    const { config: agent } = await registerApp(service.dataDir, issuer, ['--name', 'Research agent', '--redirect-uri', APP, '--public']);
    const { verifier, redirect, pages } = await flow(agent, { scope: 'openid mcp:tools', resource });
    expect(pages.map(headingOf)).to.deep.equal(['Sign in', 'Allow Research agent?']);
    expect(pages[1]).to.include(`<li>Use ${resource} for you: mcp:tools</li>`);
    const tokens = await client.authorizationCodeGrant(agent, redirect, { pkceCodeVerifier: verifier, expectedState: 'st' }, { resource });
    expect(decodeProtectedHeader(tokens.access_token)).to.include({ alg: 'ES256', typ: 'at+jwt' });
    // The MCP server of the docs: its metadata (RFC 9728), named in its 401; the token accepted, for this person and app.
    const bare = await fetch(resource, { method: 'POST' });
    const named = /resource_metadata="([^"]+)"/.exec(bare.headers.get('www-authenticate') ?? '')?.[1] ?? '';
    expect(bare.status).to.equal(401);
    expect(await (await fetch(named)).json()).to.deep.include({ resource, authorization_servers: [issuer] });
    const answered = await fetch(resource, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(answered.status).to.equal(200);
    expect(((await answered.json()) as { result: unknown }).result).to.deep.equal({ sub: userId, client_id: agent.clientMetadata().client_id });
    // A token of the provider's without the resource (for userinfo) is not one for the MCP server.
    const plain = await flow(agent, { scope: 'openid' });
    const userinfoToken = (await client.authorizationCodeGrant(agent, plain.redirect, { pkceCodeVerifier: plain.verifier, expectedState: 'st' })).access_token;
    const refused = await fetch(resource, { method: 'POST', headers: { authorization: `Bearer ${userinfoToken}` } });
    expect([refused.status, refused.headers.get('www-authenticate')]).to.deep.equal([401, `Bearer resource_metadata="${named}", error="invalid_token"`]);
  });

  it('refuses a resource nobody configured (invalid_target), and a scope the resource does not know is not granted', async () => {
    const { config: agent } = await registerApp(service.dataDir, issuer, ['--name', 'Stray agent', '--redirect-uri', APP, '--public']);
    const browser = new Browser(issuer);
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(agent, { redirect_uri: APP, scope: 'openid mcp:tools', resource: 'https://elsewhere.example.com/mcp', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
    const outcome = await browser.follow(await browser.go(url.href));
    expect(outcome.url?.searchParams.get('error')).to.equal('invalid_target');
    const other = await flow(agent, { scope: 'openid orders:read mcp:tools', resource: 'https://api.example.com/' });
    const tokens = await client.authorizationCodeGrant(agent, other.redirect, { pkceCodeVerifier: other.verifier, expectedState: 'st' }, { resource: 'https://api.example.com/' });
    const payload = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString()) as { aud: string; scope: string };
    expect(payload.aud).to.equal('https://api.example.com/');
    expect(payload.scope.split(' ')).to.include('orders:read').and.not.include('mcp:tools');
  });

  it('has no registration endpoint unless the operator turns it on', async () => {
    const port = await freePort();
    const plain = await startTestService({ PORT: String(port), PUBLIC_API_URL: `http://127.0.0.1:${port}` });
    try {
      expect((await http(plain.url, '/.well-known/openid-configuration', { method: 'GET' })).body.registration_endpoint).to.equal(undefined);
      expect((await http(plain.url, '/oidc/reg', { method: 'POST', headers: { 'content-type': 'application/json' }, body: AGENT })).status).to.equal(404);
    } finally {
      await plain.dispose();
    }
  });
});
