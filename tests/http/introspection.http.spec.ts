import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { aSignUpBody } from '../support/builders.js';
import { admin, apiKeyFor } from '../support/api-keys.js';
import { encodingsOf } from '../support/erasure-probe.js';
import { http, postJson } from '../support/http-client.js';
import { captureLogs } from '../support/log-capture.js';
import { type TestService, startTestService } from '../support/test-service.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const introspect = (service: TestService, key: string | null, body: string, type = 'application/json') =>
  http(service.url, '/oauth/introspect', { body, headers: { 'content-type': type, ...(key === null ? {} : bearer(key)) } });

describe('HTTP: API keys and token introspection (RFC 7662, issue 54)', function () {
  this.timeout(30_000);
  const logs = captureLogs('debug');
  let service: TestService;
  let introspector: { id: string; key: string };
  before(async () => {
    service = await startTestService({ RATE_LIMIT_MAX: '10000', LOG_LEVEL: 'debug' }, { logger: logs.logger });
    introspector = await apiKeyFor(service.dataDir, 'introspect');
  });
  after(async () => service.dispose());

  it('answers a live access token active with its claims, JSON or form-encoded, and active: false at once after its sign-out', async () => {
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'introspected@example.com' }));
    const token: string = up.body.data.accesstoken;
    for (const [body, type] of [[JSON.stringify({ token }), 'application/json'], [new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(), 'application/x-www-form-urlencoded']] as const) {
      const live = await introspect(service, introspector.key, body, type);
      expect(live.status, type).to.equal(200);
      expect(live.headers['cache-control']).to.equal('no-store');
      expect(live.body).to.deep.include({ active: true, sub: up.body.data.user.id, token_type: 'Bearer', amr: ['pwd'] });
      expect(live.body.exp - live.body.iat).to.equal(900);
    }
    expect((await postJson(service.url, '/auth/sign-out', {}, bearer(token))).status).to.equal(204);
    expect((await introspect(service, introspector.key, JSON.stringify({ token }))).body).to.deep.equal({ active: false });
  });

  it('the resource server of docs/operators.md: jose verifies locally until exp; introspection sees the sign-out at once', async () => {
    const jwks = createRemoteJWKSet(new URL(`${service.url}/.well-known/jwks.json`));
    const verify = async (token: string, sensitive: boolean) => {
      const { payload } = await jwtVerify(token, jwks, { issuer: 'account-service', audience: 'account-service', algorithms: ['ES256'] });
      if (!sensitive) return payload;
      const res = await fetch(`${service.url}/oauth/introspect`, {
        method: 'POST',
        headers: { authorization: `Bearer ${introspector.key}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }),
      });
      const answer = (await res.json()) as { active: boolean };
      if (!answer.active) throw new Error('token no longer active');
      return payload;
    };
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'resource-server@example.com' }));
    const token: string = up.body.data.accesstoken;
    expect((await verify(token, true)).sub).to.equal(up.body.data.user.id);
    expect((await postJson(service.url, '/auth/sign-out', {}, bearer(token))).status).to.equal(204);
    expect((await verify(token, false)).sub, 'the JWK Set alone still accepts it, until exp').to.equal(up.body.data.user.id);
    expect((await verify(token, true).catch((error: Error) => error)).message).to.equal('token no longer active');
  });

  it('refuses a request with no key or an unknown one (401), a key without the scope (403), and a revoked key at once (401)', async () => {
    const body = JSON.stringify({ token: 'anything' });
    const missing = await introspect(service, null, body);
    expect(missing.status).to.equal(401);
    expect(missing.headers['www-authenticate']).to.match(/^Bearer/);
    expect((await introspect(service, `${introspector.key.slice(0, -3)}xyz`, body)).status).to.equal(401);
    const reader = await apiKeyFor(service.dataDir, 'users:read');
    const refused = await introspect(service, reader.key, body);
    expect([refused.status, refused.body.message]).to.deep.equal([403, 'Insufficient scope']);
    const revocable = await apiKeyFor(service.dataDir, 'introspect');
    expect((await introspect(service, revocable.key, body)).status).to.equal(200);
    expect((await admin(service.dataDir, ['revoke-key', revocable.id])).code).to.equal(0);
    expect((await introspect(service, revocable.key, body)).status, 'revoked by the command line while the service runs').to.equal(401);
  });

  it('never answers 5xx, whatever the body: every input is 200 (active: false) or a documented 400', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((value) => JSON.stringify({ token: value }))), async (body) => {
        const res = await introspect(service, introspector.key, body);
        expect([200, 400], `${res.status} for ${body.slice(0, 40)}`).to.include(res.status);
        if (res.status === 200) expect(res.body).to.deep.equal({ active: false });
      }),
      { numRuns: 150 },
    );
  });

  it('reads a form body on introspection only: sign-up still answers a form 415', async () => {
    const form = await http(service.url, '/auth/sign-up', { body: 'email=a%40b.co&password=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).to.equal(415);
    const repeated = await introspect(service, introspector.key, 'token=a&token=b', 'application/x-www-form-urlencoded');
    expect(repeated.status).to.equal(400);
  });

  it('keeps keys in clear neither under DATA_DIR nor in the log; lists them without a secret', async () => {
    const listed = await admin(service.dataDir, ['list-keys']);
    expect(listed.code).to.equal(0);
    const keys = JSON.parse(listed.out[0] ?? '[]') as { id: string }[];
    expect(keys.map((key) => key.id)).to.include(introspector.id);
    const secret = introspector.key.split('.')[1] ?? '';
    expect(listed.out.join('')).not.to.include(secret);
    for (const line of logs.lines) expect(line).not.to.include(secret);
    for (const name of readdirSync(service.dataDir, { recursive: true, encoding: 'utf8' })) {
      const path = join(service.dataDir, name);
      if (!statSync(path).isFile()) continue;
      const bytes = readFileSync(path);
      expect(encodingsOf(secret).some((form) => bytes.includes(form)), name).to.equal(false);
    }
  });

  it('answers a usage error with exit code 2 and an unknown scope with 1, naming it', async () => {
    expect((await admin(service.dataDir, ['make-key'])).code).to.equal(2);
    const unknown = await admin(service.dataDir, ['create-key', '--scopes', 'users:admin']);
    expect(unknown.code).to.equal(1);
    expect(unknown.err.join(' ')).to.include('scopes').and.include('users:admin');
  });
});
