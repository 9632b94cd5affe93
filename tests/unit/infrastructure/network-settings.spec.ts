import { CAPABILITIES } from '../../../src/capabilities/index.js';
import { derivedOf } from '../../../src/infrastructure/container/capability.js';
import { WEBHOOKS } from '../../../src/infrastructure/webhooks/webhook-settings.js';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/infrastructure/config/config.js';
import { durationMs, trustProxyOf } from '../../../src/infrastructure/config/network-settings.js';

describe('configuration: abuse-resistance settings', () => {
  it('defaults to 5 failures per 900 s, 100 requests per minute, and no trusted proxy', () => {
    const config = loadConfig({});
    expect(config.throttle).to.deep.equal({ maxFailures: 5, windowSeconds: 900 });
    expect(config.rateLimit).to.deep.equal({ max: 100, windowMs: 60_000, reset: { max: 10, windowMs: 900_000 }, store: { kind: 'memory' } });
    expect(config.trustProxy).to.equal(false);
  });

  it('shares the per-client limits through Redis only with a REDIS_URL, and webhooks only with a whsec_ secret', () => {
    expect(loadConfig({ RATE_LIMIT_STORE: 'redis', REDIS_URL: 'redis://cache:6379' }).rateLimit.store).to.deep.equal({ kind: 'redis', url: 'redis://cache:6379' });
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).to.throw(ConfigError, 'REDIS_URL is required when RATE_LIMIT_STORE=redis');
    expect(() => loadConfig({ WEBHOOK_URL: 'https://hooks.example/in' }, CAPABILITIES)).to.throw(ConfigError, 'WEBHOOK_SECRET');
    expect(() => loadConfig({ WEBHOOK_URL: 'ftp://hooks.example/in', WEBHOOK_SECRET: `whsec_${'A'.repeat(44)}` }, CAPABILITIES)).to.throw(ConfigError, 'not an http(s) URL');
    expect(derivedOf(loadConfig({ WEBHOOK_URL: 'https://a.example/in, https://b.example/in', WEBHOOK_SECRET: `whsec_${'A'.repeat(44)}` }, CAPABILITIES), WEBHOOKS).receivers.map((receiver) => receiver.url)).to.deep.equal(['https://a.example/in', 'https://b.example/in']);
  });

  it('reads them from the environment', () => {
    const config = loadConfig({ THROTTLE_MAX_FAILURES: '3', THROTTLE_WINDOW_SECONDS: '60', RATE_LIMIT_MAX: '7', RATE_LIMIT_WINDOW: '30s', TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' });
    expect(config.throttle).to.deep.equal({ maxFailures: 3, windowSeconds: 60 });
    expect(config.rateLimit).to.deep.include({ max: 7, windowMs: 30_000 });
    expect(config.trustProxy).to.deep.equal(['10.0.0.0/8', '127.0.0.1']);
  });

  for (const [variable, value] of [['RATE_LIMIT_WINDOW', 'soon'], ['RATE_LIMIT_WINDOW', '0'], ['TRUST_PROXY', 'yes please'], ['RATE_LIMIT_MAX', '0'], ['THROTTLE_MAX_FAILURES', '-1']] as const) {
    it(`refuses ${variable}=${value} naming the variable`, () => {
      expect(() => loadConfig({ [variable]: value })).to.throw(ConfigError, variable);
    });
  }

  it('reads a window as milliseconds or a duration', () => {
    expect(['60000', '60 s', '1 minute', '1m', '2 minutes', '1h', '250ms'].map(durationMs)).to.deep.equal([60_000, 60_000, 60_000, 60_000, 120_000, 3_600_000, 250]);
    expect(durationMs('1 fortnight')).to.equal(null);
  });

  it('reads TRUST_PROXY as a boolean, a hop count or addresses', () => {
    expect(['false', 'TRUE', '2', 'loopback'].map(trustProxyOf)).to.deep.equal([false, true, 2, ['loopback']]);
    expect(trustProxyOf('evil.example.com')).to.equal(null);
  });
});
