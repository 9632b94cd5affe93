import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { SigningKeyError } from '../../../src/infrastructure/security/signing-key.js';
import { VerificationKeyRing, loadPreviousPublicKeys } from '../../../src/infrastructure/security/verification-key-ring.js';
import { tempDir } from '../../support/test-service.js';
import { type TestKey, aTestKey } from '../../support/tokens.js';

const signingKeyOf = (key: TestKey) => {
  const privateKey = createPrivateKey(key.privatePem);
  return { kid: key.kid, privateKey, publicKey: createPublicKey(privateKey) };
};

describe('VerificationKeyRing and previous public keys', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir('previous-keys')));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loads every *.pem of the directory (sorted) and then the listed files, with their thumbprint kids', () => {
    const [a, b, c] = [aTestKey(), aTestKey(), aTestKey()];
    writeFileSync(join(dir, 'b.pem'), b.publicPem);
    writeFileSync(join(dir, 'a.pem'), a.publicPem);
    writeFileSync(join(dir, 'README.txt'), 'not a key');
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'other', 'c.pem'), c.publicPem);

    const keys = loadPreviousPublicKeys({ previousPublicKeysDir: dir, previousPublicKeyFiles: [join(dir, 'other', 'c.pem')] });
    expect(keys.map((key) => key.kid)).to.deep.equal([a.kid, b.kid, c.kid]);
  });

  it('loads nothing when nothing is configured', () => {
    expect(loadPreviousPublicKeys({ previousPublicKeysDir: undefined, previousPublicKeyFiles: [] })).to.deep.equal([]);
  });

  it('refuses, naming the file, a private key, a non-key, a non-P-256 key, a missing file or directory', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const cases: Array<[string, string]> = [
      ['private.pem', aTestKey().privatePem],
      ['garbage.pem', 'hello'],
      ['rsa.pem', rsa],
    ];
    for (const [name, content] of cases) {
      writeFileSync(join(dir, name), content);
      expect(() => loadPreviousPublicKeys({ previousPublicKeysDir: undefined, previousPublicKeyFiles: [join(dir, name)] }))
        .to.throw(SigningKeyError)
        .with.property('message')
        .that.includes(name);
    }
    expect(() => loadPreviousPublicKeys({ previousPublicKeysDir: undefined, previousPublicKeyFiles: [join(dir, 'absent.pem')] })).to.throw(SigningKeyError);
    expect(() => loadPreviousPublicKeys({ previousPublicKeysDir: join(dir, 'absent'), previousPublicKeyFiles: [] })).to.throw(SigningKeyError, /JWT_PREVIOUS_PUBLIC_KEYS_DIR/);
  });

  it('publishes the current key first then the previous ones, once each, as public ES256 JWKs', () => {
    const [current, previous] = [aTestKey(), aTestKey()];
    const previousKey = { kid: previous.kid, publicKey: createPublicKey(previous.publicPem) };
    const currentAgain = { kid: current.kid, publicKey: createPublicKey(current.publicPem) };
    const ring = new VerificationKeyRing(signingKeyOf(current), [previousKey, currentAgain, previousKey]);

    const jwks = ring.publicKeys();
    expect(jwks.map((jwk) => jwk.kid)).to.deep.equal([current.kid, previous.kid]);
    for (const jwk of jwks) {
      expect(Object.keys(jwk).sort()).to.deep.equal(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
      expect(jwk).to.include({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    }
    expect(ring.find(previous.kid)?.equals(previousKey.publicKey)).to.equal(true);
    expect(ring.find('unknown')).to.equal(null);
  });
});
