import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/infrastructure/config/config.js';
import { hashConcurrencyPerWorker } from '../../../src/infrastructure/cluster/primary.js';

describe('Configuration: WORKERS', () => {
  it('serves in one process unless WORKERS says more', () => {
    expect(loadConfig({}).workers).to.equal(1);
    expect(loadConfig({ WORKERS: '4' }).workers).to.equal(4);
  });

  it('refuses more than one worker on the in-memory store, which no two processes share', () => {
    expect(() => loadConfig({ WORKERS: '2', STORAGE: 'memory' })).to.throw(ConfigError, /WORKERS above 1 needs a store the workers share/);
    expect(loadConfig({ WORKERS: '1', STORAGE: 'memory' }).workers).to.equal(1);
  });

  it('refuses a WORKERS that is not a whole number from 1 to 256, naming the variable', () => {
    for (const value of ['0', '2.5', 'many', '257']) expect(() => loadConfig({ WORKERS: value }), value).to.throw(ConfigError, /WORKERS/);
  });

  it('shares HASH_CONCURRENCY out among the workers, at least one hash each', () => {
    const share = (workers: number, concurrency: number) => hashConcurrencyPerWorker({ workers, hashing: { concurrency, maxQueue: 64, threadNice: 0 } });
    expect(share(1, 16)).to.equal(16);
    expect(share(4, 16)).to.equal(4);
    expect(share(3, 16)).to.equal(6);
    expect(share(2, 2)).to.equal(1);
    expect(share(8, 2)).to.equal(1);
  });
});
