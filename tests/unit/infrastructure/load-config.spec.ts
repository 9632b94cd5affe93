import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../src/infrastructure/config/config.js';
import { PRODUCTION_KEYS, configFailure } from '../../support/config-failure.js';
import { CAPABILITIES } from '../../../src/capabilities/index.js';
import { derivedOf } from '../../../src/infrastructure/container/capability.js';
import { WEBAUTHN } from '../../../src/infrastructure/passkeys/webauthn-settings.js';

const failure = configFailure;

describe('loadConfig', () => {
  describe('the signing key and DATA_DIR in production', () => {
    const production = { NODE_ENV: 'production', DATA_DIR: '/var/lib/accounts', SMTP_URL: 'smtp://relay.example:587', ...PRODUCTION_KEYS };

    it('refuses a JWT_PRIVATE_KEY_FILE inside DATA_DIR, naming both and the way out', () => {
      for (const file of ['/var/lib/accounts/jwt.pem', '/var/lib/accounts/keys/../keys/jwt.pem', '/var/lib/accounts/sub/jwt.pem']) {
        const message = failure({ ...production, JWT_PRIVATE_KEY_FILE: file });
        expect(message, file).to.include('JWT_PRIVATE_KEY_FILE').and.include('inside DATA_DIR').and.include('ALLOW_SIGNING_KEY_IN_DATA_DIR=true');
      }
      expect(failure({ ...production, DATA_DIR: './data', JWT_PRIVATE_KEY_FILE: 'data/jwt.pem' })).to.include('inside DATA_DIR');
    });

    it('resolves symbolic links: a key reached through a link into DATA_DIR is inside it, and so is a DATA_DIR reached through one', () => {
      const root = mkdtempSync(join(tmpdir(), 'key-links-'));
      try {
        const dataDir = join(root, 'data');
        mkdirSync(dataDir);
        writeFileSync(join(dataDir, 'jwt.pem'), 'key');
        symlinkSync(dataDir, join(root, 'keys'));
        symlinkSync(dataDir, join(root, 'data-link'));
        expect(failure({ ...production, DATA_DIR: dataDir, JWT_PRIVATE_KEY_FILE: join(root, 'keys', 'jwt.pem') })).to.include('inside DATA_DIR');
        expect(failure({ ...production, DATA_DIR: join(root, 'data-link'), JWT_PRIVATE_KEY_FILE: join(dataDir, 'new', 'jwt.pem') })).to.include('inside DATA_DIR');
        expect(() => loadConfig({ ...production, DATA_DIR: dataDir, JWT_PRIVATE_KEY_FILE: join(root, 'elsewhere', 'jwt.pem') })).to.not.throw();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });

    it('accepts a key outside DATA_DIR, a key inside it when told so, and any place outside production', () => {
      expect(() => loadConfig({ ...production, JWT_PRIVATE_KEY_FILE: '/run/secrets/jwt.pem' })).to.not.throw();
      expect(() => loadConfig({ ...production, JWT_PRIVATE_KEY_FILE: '/var/lib/accounts-keys/jwt.pem' })).to.not.throw();
      expect(() => loadConfig({ ...production, JWT_PRIVATE_KEY_FILE: '/var/lib/accounts/jwt.pem', ALLOW_SIGNING_KEY_IN_DATA_DIR: 'true' })).to.not.throw();
      expect(() => loadConfig({ DATA_DIR: '/var/lib/accounts', JWT_PRIVATE_KEY_FILE: '/var/lib/accounts/jwt.pem' })).to.not.throw();
    });

    it('refuses a PERSONAL_DATA_KEY_FILE inside DATA_DIR whatever ALLOW_SIGNING_KEY_IN_DATA_DIR says, and the key given twice', () => {
      for (const allowed of ['true', 'false']) {
        const message = failure({ ...production, PERSONAL_DATA_KEY_FILE: '/var/lib/accounts/personal-data.key', ALLOW_SIGNING_KEY_IN_DATA_DIR: allowed });
        expect(message, allowed).to.include('PERSONAL_DATA_KEY_FILE').and.include('inside DATA_DIR');
      }
      expect(() => loadConfig({ ...production, PERSONAL_DATA_KEY_FILE: '/run/secrets/personal-data.key' })).to.not.throw();
      expect(loadConfig({ ...production, PERSONAL_DATA_KEY_FILE: '/run/secrets/personal-data.key' }).sessions.personalDataKeyFile).to.equal('/run/secrets/personal-data.key');
      expect(failure({ PERSONAL_DATA_KEY: 'k'.repeat(32), PERSONAL_DATA_KEY_FILE: '/run/secrets/personal-data.key' })).to.include('PERSONAL_DATA_KEY or PERSONAL_DATA_KEY_FILE, not both');
    });
  });

  describe('mail in production', () => {
    it('refuses to start without SMTP_URL, naming it and the way to mean files', () => {
      const message = failure({ NODE_ENV: 'production', DATA_DIR: '/var/lib/accounts', ...PRODUCTION_KEYS });
      expect(message).to.include('SMTP_URL is required when NODE_ENV=production').and.include('MAIL_TRANSPORT=file');
      expect(message.split('\n')).to.have.length(1);
    });

    it('sends by SMTP when SMTP_URL is set, writes files when MAIL_TRANSPORT=file says so, and writes files outside production', () => {
      expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION_KEYS, SMTP_URL: 'smtp://relay.example:587' }).mail.transport).to.equal('smtp');
      expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION_KEYS, MAIL_TRANSPORT: 'file' }).mail.transport).to.equal('file');
      expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION_KEYS, MAIL_TRANSPORT: 'file', SMTP_URL: 'smtp://relay.example:587' }).mail.transport).to.equal('file');
      expect(loadConfig({}).mail.transport).to.equal('file');
      expect(failure({ MAIL_TRANSPORT: 'smtp' })).to.include('SMTP_URL is required when MAIL_TRANSPORT=smtp');
    });
  });

  describe('the unverified-account sweep (UNVERIFIED_ACCOUNT_TTL)', () => {
    const ttl = (env: Record<string, string>) => loadConfig(env).mail.unverifiedAccountTtlSeconds;

    it('defaults to 7 days with REQUIRE_VERIFIED_EMAIL=true (such an account holds nothing but a resend), to never (0) without it', () => {
      expect(ttl({ REQUIRE_VERIFIED_EMAIL: 'true' })).to.equal(7 * 86_400);
      expect(ttl({ NODE_ENV: 'production', ...PRODUCTION_KEYS, SMTP_URL: 'smtp://relay.example:587', REQUIRE_VERIFIED_EMAIL: 'true' })).to.equal(7 * 86_400);
      expect(ttl({})).to.equal(0);
      expect(ttl({ REQUIRE_VERIFIED_EMAIL: 'false' })).to.equal(0);
    });

    it('takes the value set, 0 included, whatever REQUIRE_VERIFIED_EMAIL says', () => {
      expect(ttl({ REQUIRE_VERIFIED_EMAIL: 'true', UNVERIFIED_ACCOUNT_TTL: '0' })).to.equal(0);
      expect(ttl({ REQUIRE_VERIFIED_EMAIL: 'true', UNVERIFIED_ACCOUNT_TTL: '86400' })).to.equal(86_400);
      expect(ttl({ UNVERIFIED_ACCOUNT_TTL: '3600' })).to.equal(3600);
    });
  });

  describe('passkeys (WEBAUTHN_*)', () => {
    it('takes the RP ID and the one origin from PUBLIC_APP_URL unless told otherwise', () => {
      const relyingParty = (env: Record<string, string>) => derivedOf(loadConfig(env, CAPABILITIES), WEBAUTHN);
      expect(relyingParty({ PUBLIC_APP_URL: 'https://app.example.com/accounts' })).to.deep.equal({ rpId: 'app.example.com', rpName: 'Account service', origins: ['https://app.example.com'] });
      const told = relyingParty({ WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGINS: 'https://app.example.com, https://example.com', WEBAUTHN_RP_NAME: 'Example' });
      expect(told).to.deep.equal({ rpId: 'example.com', rpName: 'Example', origins: ['https://app.example.com', 'https://example.com'] });
    });

    it('refuses an origin outside the RP ID, and * or a malformed list, naming the variable', () => {
      expect(failure({ WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGINS: 'https://app.example.com,https://evil-example.com' })).to.match(/WEBAUTHN_RP_ID example\.com .* https:\/\/evil-example\.com/);
      expect(failure({ WEBAUTHN_ORIGINS: '*' })).to.match(/WEBAUTHN_ORIGINS/);
      expect(failure({ WEBAUTHN_ORIGINS: 'https://app.example.com/path' })).to.match(/WEBAUTHN_ORIGINS/);
    });
  });

  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config.http).to.deep.equal({
      port: 3000,
      host: '127.0.0.1',
      bodyLimitBytes: 16384,
      shutdownDrainMs: 0,
      timeoutsMs: { headers: 10_000, request: 30_000, connection: 30_000, keepAlive: 5_000, checkInterval: 1_000 },
      maxConnections: 900,
    });
    expect(config.storage).to.deep.equal({ kind: 'lmdb', dataDir: './data', minFreeBytes: 64 * 1024 * 1024, mongodb: { uri: undefined, dbName: 'accounts', timeoutMs: 5000 }, postgres: { url: undefined, timeoutMs: 5000, poolSize: 10 } });
    expect(config.argon2).to.deep.equal({ memoryKiB: 19456, timeCost: 2, parallelism: 1 });
    expect(config.jwt).to.include({ issuer: 'account-service', audience: 'account-service', ttlSeconds: 900 });
    expect(config.logLevel).to.equal('info');
  });

  it('reads and converts the variables', () => {
    const config = loadConfig({ PORT: '8080', STORAGE: 'memory', ARGON2_TIME_COST: '3', JWT_TTL_SECONDS: '60', LOG_LEVEL: 'debug' });
    expect(config.http.port).to.equal(8080);
    expect(config.storage.kind).to.equal('memory');
    expect(config.argon2.timeCost).to.equal(3);
    expect(config.jwt.ttlSeconds).to.equal(60);
    expect(config.logLevel).to.equal('debug');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '' }).http.port).to.equal(3000);
  });

  it('names the variable that is wrong, and every one of them', () => {
    const message = failure({ PORT: 'eighty', STORAGE: 'postgres', ARGON2_MEMORY_KIB: '10' });
    expect(message).to.include('PORT');
    expect(message).to.include('STORAGE');
    expect(message).to.include('ARGON2_MEMORY_KIB');
  });

  it('reads the outbox settings, with their defaults, and refuses values out of range', () => {
    const { mail } = loadConfig({});
    expect([mail.maxAttempts, mail.sendConcurrency, mail.batchSize, mail.leaseMs]).to.deep.equal([8, 8, 50, 10_000]);
    const set = loadConfig({ MAIL_MAX_ATTEMPTS: '3', MAIL_SEND_CONCURRENCY: '16', MAIL_BATCH_SIZE: '100', MAIL_LEASE_MS: '5000' }).mail;
    expect([set.maxAttempts, set.sendConcurrency, set.batchSize, set.leaseMs]).to.deep.equal([3, 16, 100, 5_000]);
    const message = failure({ MAIL_MAX_ATTEMPTS: '0', MAIL_SEND_CONCURRENCY: '1000', MAIL_BATCH_SIZE: 'many', MAIL_LEASE_MS: '500' });
    for (const name of ['MAIL_MAX_ATTEMPTS', 'MAIL_SEND_CONCURRENCY', 'MAIL_BATCH_SIZE', 'MAIL_LEASE_MS']) expect(message).to.include(name);
  });

  it('refuses an out-of-range port', () => {
    expect(failure({ PORT: '70000' })).to.include('PORT');
  });

  it('reads the MongoDB deadline and refuses one that would not answer before the 30 s HTTP request timeout', () => {
    expect(loadConfig({ MONGODB_TIMEOUT_MS: '2500' }).storage.mongodb.timeoutMs).to.equal(2500);
    expect(failure({ MONGODB_TIMEOUT_MS: '30000' })).to.include('MONGODB_TIMEOUT_MS').and.include('HTTP request timeout');
    expect(failure({ MONGODB_TIMEOUT_MS: '0' })).to.include('MONGODB_TIMEOUT_MS');
  });

  it('reads the session limits: wrong current passwords per session (default 5, 1 to 100)', () => {
    expect(loadConfig({}).sessions.passwordChangeMaxFailures).to.equal(5);
    expect(loadConfig({ PASSWORD_CHANGE_MAX_FAILURES: '3' }).sessions.passwordChangeMaxFailures).to.equal(3);
    expect(failure({ PASSWORD_CHANGE_MAX_FAILURES: '0' })).to.include('PASSWORD_CHANGE_MAX_FAILURES');
    expect(failure({ PASSWORD_CHANGE_MAX_FAILURES: '101' })).to.include('PASSWORD_CHANGE_MAX_FAILURES');
  });

  it('reads the per-account session cap (default 50, 1 to 1000)', () => {
    expect(loadConfig({}).sessions.maxPerAccount).to.equal(50);
    expect(loadConfig({ SESSIONS_MAX_PER_ACCOUNT: '3' }).sessions.maxPerAccount).to.equal(3);
    expect(failure({ SESSIONS_MAX_PER_ACCOUNT: '0' })).to.include('SESSIONS_MAX_PER_ACCOUNT');
    expect(loadConfig({ SESSIONS_MAX_PER_ACCOUNT: '20000' }).sessions.maxPerAccount).to.equal(20_000);
    expect(failure({ SESSIONS_MAX_PER_ACCOUNT: '100001' })).to.include('SESSIONS_MAX_PER_ACCOUNT');
  });
});
