import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { GENERATED_KEY_FILE, SigningKeyError, loadSigningKey } from '../../../src/infrastructure/security/signing-key.js';
import { tempDir } from '../../support/test-service.js';

const ecPem = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

describe('loadSigningKey', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = tempDir('keys')));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const source = (overrides: Partial<Parameters<typeof loadSigningKey>[0]> = {}) => ({
    privateKeyPem: undefined,
    privateKeyFile: undefined,
    dataDir,
    production: false,
    ...overrides,
  });

  it('uses the configured PEM, with its thumbprint as kid', () => {
    const pem = ecPem();
    const { key, origin } = loadSigningKey(source({ privateKeyPem: pem }));
    expect(origin).to.equal('configured');
    expect(key.kid).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(loadSigningKey(source({ privateKeyPem: pem })).key.kid).to.equal(key.kid);
  });

  it('refuses to start in production without a key, naming the variables', () => {
    expect(() => loadSigningKey(source({ production: true }))).to.throw(SigningKeyError, /JWT_PRIVATE_KEY/);
  });

  it('refuses a key that is not EC P-256', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => loadSigningKey(source({ privateKeyPem: rsa }))).to.throw(SigningKeyError, /P-256/);
    expect(() => loadSigningKey(source({ privateKeyPem: 'not a key' }))).to.throw(SigningKeyError, /JWT_PRIVATE_KEY is not a PEM/);
  });

  it('outside production generates a key once, private to the owner, and reuses it', () => {
    const first = loadSigningKey(source());
    const file = join(dataDir, GENERATED_KEY_FILE);
    expect(first.origin).to.equal('generated');
    expect(statSync(file).mode & 0o077).to.equal(0);
    const second = loadSigningKey(source());
    expect(second.origin).to.equal('persisted');
    expect(second.key.kid).to.equal(first.key.kid);
    expect(readFileSync(file, 'utf8')).to.include('BEGIN PRIVATE KEY');
  });
});
