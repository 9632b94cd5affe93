import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { GENERATED_PERSONAL_DATA_KEY_FILE, PersonalDataKeys, personalDataSecret } from '../../../src/infrastructure/security/personal-data-keys.js';
import { tempDir } from '../../support/test-service.js';

describe('The personal-data key (PERSONAL_DATA_KEY)', () => {
  it('is the configured one; in production none configured refuses to start, naming the setting', () => {
    expect(personalDataSecret({ configured: 'x'.repeat(32), dataDir: '/nonexistent', production: true, ephemeral: false }).toString()).to.equal('x'.repeat(32));
    expect(() => personalDataSecret({ configured: undefined, dataDir: '/nonexistent', production: true, ephemeral: false })).to.throw(
      'PERSONAL_DATA_KEY (or PERSONAL_DATA_KEY_FILE) is required when NODE_ENV=production',
    );
  });

  it('is read from PERSONAL_DATA_KEY_FILE (trimmed), held to 32 characters, and a missing file names itself', () => {
    const dir = tempDir('personal-data-key-file');
    try {
      const file = join(dir, 'personal-data.key');
      writeFileSync(file, `${'k'.repeat(40)}\n`);
      const options = { configured: undefined, configuredFile: file, dataDir: join(dir, 'data'), production: true, ephemeral: false };
      expect(personalDataSecret(options).toString()).to.equal('k'.repeat(40));
      writeFileSync(file, 'short\n');
      expect(() => personalDataSecret(options)).to.throw('must hold at least 32 characters');
      expect(() => personalDataSecret({ ...options, configuredFile: join(dir, 'missing.key') })).to.throw('cannot read');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is generated once outside production, kept in DATA_DIR (owner-only) and read again by every later start', () => {
    const dir = tempDir('personal-data-key');
    try {
      const options = { configured: undefined, dataDir: dir, production: false, ephemeral: false };
      const first = personalDataSecret(options);
      expect(first).to.have.length(32);
      expect(personalDataSecret(options).equals(first)).to.equal(true);
      const file = join(dir, GENERATED_PERSONAL_DATA_KEY_FILE);
      expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first)).to.equal(true);
      expect(statSync(file).mode & 0o777).to.equal(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('derives keys that seal, blind and wrap, each bound to what it was made for', () => {
    const keys = new PersonalDataKeys(Buffer.alloc(32, 1));
    const { key, wrapped } = keys.newDataKey('u1');
    expect(keys.unwrap('u1', wrapped)?.equals(key)).to.equal(true);
    expect(keys.unwrap('u2', wrapped), 'another account').to.equal(null);
    const sealed = keys.seal(key, 'users\u0000u1', { email: 'ada@example.com', at: new Date(5) });
    expect(keys.open(key, 'users\u0000u1', sealed)).to.deep.equal({ email: 'ada@example.com', at: new Date(5) });
    expect(keys.open(key, 'users\u0000u2', sealed), 'another record').to.equal(null);
    expect(keys.blind('ada@example.com')).to.equal(keys.blind('ada@example.com')).and.not.to.include('ada');
    expect(new PersonalDataKeys(Buffer.alloc(32, 2)).blind('ada@example.com')).to.not.equal(keys.blind('ada@example.com'));
  });

  it('never reuses an AES-GCM nonce under one key: each seal and each wrapped data key starts with a fresh 12-byte IV', () => {
    const keys = new PersonalDataKeys(Buffer.alloc(32, 1));
    const { key } = keys.newDataKey('u1');
    const ivOf = (sealed: string) => Buffer.from(sealed, 'base64').subarray(0, 12).toString('hex');
    const seals = Array.from({ length: 50 }, (_, i) => keys.seal(key, 'users\u0000u1', { email: i % 2 === 0 ? 'ada@example.com' : 'grace@example.com' }));
    expect(new Set(seals.map(ivOf)).size, 'IVs of 50 seals under one data key').to.equal(50);
    expect(seals[0], 'the same fields sealed twice').to.not.equal(seals[2]);
    expect(seals.map((sealed) => keys.open(key, 'users\u0000u1', sealed)?.['email'])).to.include.members(['ada@example.com', 'grace@example.com']);
    const wrapped = Array.from({ length: 20 }, () => keys.newDataKey('u1').wrapped);
    expect(new Set(wrapped.map(ivOf)).size, 'IVs of 20 data keys wrapped under the key-encryption key').to.equal(20);
  });
});
