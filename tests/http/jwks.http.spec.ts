import { createPublicKey, verify } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService, tempDir } from '../support/test-service.js';
import { aTestKey, claimsFor, decodePart, signToken } from '../support/tokens.js';

const get = (url: string, path: string, token?: string) =>
  http(url, path, { method: 'GET', headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

/** What any resource server can do with nothing but the published JWK Set and node:crypto. */
const verifiesWithJwks = (token: string, keys: Array<Record<string, string>>): boolean => {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const jwk = keys.find((candidate) => candidate['kid'] === decodePart(token, 0)['kid']);
  if (!jwk) return false;
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  return verify('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
};

describe('HTTP: GET /.well-known/jwks.json', () => {
  let service: TestService;
  before(async () => (service = await startTestService()));
  after(async () => service.dispose());

  it('publishes the public signing key as a cacheable JWK Set, and nothing private', async () => {
    const res = await get(service.url, '/.well-known/jwks.json');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    expect(res.headers['cache-control']).to.equal('public, max-age=300');
    expect(res.body.keys).to.have.length(1);
    expect(Object.keys(res.body.keys[0]).sort()).to.deep.equal(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(res.body.keys[0]).to.include({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
  });

  it('lets node:crypto alone verify a real token, and refuse it once tampered with', async () => {
    const token: string = (await postJson(service.url, '/auth/sign-up', aSignUpBody())).body.data.accesstoken;
    const { keys } = (await get(service.url, '/.well-known/jwks.json')).body;
    expect(verifiesWithJwks(token, keys)).to.equal(true);
    const [header, , signature] = token.split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...decodePart(token, 1), sub: 'someone-else' })).toString('base64url')}.${signature}`;
    expect(verifiesWithJwks(tampered, keys)).to.equal(false);
  });
});

describe('HTTP: signing-key rotation (A, then B with A kept as a previous key)', () => {
  const [keyA, keyB, keyC] = [aTestKey(), aTestKey(), aTestKey()];
  let dataDir: string;
  let previousDir: string;
  let userId: string;
  let tokenA: string;
  let service: TestService | undefined;
  const start = async (env: Record<string, string>) => (service = await startTestService({ DATA_DIR: dataDir, ...env }));
  const stop = async () => service?.close();

  before(async () => {
    dataDir = tempDir('rotation');
    previousDir = join(dataDir, 'previous-keys');
    mkdirSync(previousDir);
    writeFileSync(join(previousDir, 'key-a.pem'), keyA.publicPem);
    await start({ JWT_PRIVATE_KEY: keyA.privatePem });
    const up = await postJson(service!.url, '/auth/sign-up', aSignUpBody());
    userId = up.body.data.user.id;
    tokenA = up.body.data.accesstoken;
    expect(decodePart(tokenA, 0)['kid']).to.equal(keyA.kid);
    await stop();
  });
  afterEach(stop);
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  for (const [label, previous] of [
    ['JWT_PREVIOUS_PUBLIC_KEYS_DIR', () => ({ JWT_PREVIOUS_PUBLIC_KEYS_DIR: previousDir })],
    ['JWT_PREVIOUS_PUBLIC_KEY_FILES', () => ({ JWT_PREVIOUS_PUBLIC_KEY_FILES: ` ${join(previousDir, 'key-a.pem')} , ` })],
  ] as const) {
    it(`signs with B, still accepts and publishes A (${label}), refuses an unknown key C`, async () => {
      await start({ JWT_PRIVATE_KEY: keyB.privatePem, ...previous() });
      const { keys } = (await get(service!.url, '/.well-known/jwks.json')).body;
      expect(keys.map((key: { kid: string }) => key.kid)).to.deep.equal([keyB.kid, keyA.kid]);
      expect(verifiesWithJwks(tokenA, keys)).to.equal(true);

      expect((await get(service!.url, '/auth/me', tokenA)).body.data.user.id).to.equal(userId);
      const signIn = await postJson(service!.url, '/auth/sign-in', { email: 'ada@example.com', password: 'analytical engine 1843' });
      expect(decodePart(signIn.body.data.accesstoken, 0)['kid']).to.equal(keyB.kid);
      expect((await get(service!.url, '/auth/me', signIn.body.data.accesstoken)).status).to.equal(200);
      expect((await get(service!.url, '/auth/me', signToken(keyC, claimsFor(userId)))).status).to.equal(401);
    });
  }

  it('refuses A once it is no longer configured (the end of the rotation)', async () => {
    await start({ JWT_PRIVATE_KEY: keyB.privatePem });
    const res = await get(service!.url, '/auth/me', tokenA);
    expect(res.status).to.equal(401);
    expect(res.headers['www-authenticate']).to.equal('Bearer realm="account-service", error="invalid_token"');
    expect((await get(service!.url, '/.well-known/jwks.json')).body.keys.map((key: { kid: string }) => key.kid)).to.deep.equal([keyB.kid]);
  });

  it('refuses to start with a previous-keys directory that is missing or holds a private key', async () => {
    const errorOf = async (env: Record<string, string>) => {
      try {
        await start({ JWT_PRIVATE_KEY: keyB.privatePem, ...env });
      } catch (error) {
        return (error as Error).message;
      }
      return 'started';
    };
    expect(await errorOf({ JWT_PREVIOUS_PUBLIC_KEYS_DIR: join(dataDir, 'absent') })).to.match(/JWT_PREVIOUS_PUBLIC_KEYS_DIR/);
    writeFileSync(join(dataDir, 'leaked.pem'), keyA.privatePem);
    expect(await errorOf({ JWT_PREVIOUS_PUBLIC_KEY_FILES: join(dataDir, 'leaked.pem') })).to.match(/private key/);
  });
});
