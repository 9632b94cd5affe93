import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/infrastructure/config/config.js';
import { hashingPerWorker } from '../../../src/infrastructure/cluster/primary.js';

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

  it('starts each worker with HASH_CONCURRENCY whole (the primary bounds the hashes) and its share of HASH_QUEUE_MAX', () => {
    const share = (workers: number, concurrency: number, maxQueue = 64) => hashingPerWorker({ workers, hashing: { concurrency, maxQueue, threadNice: 0 } });
    expect(share(1, 16)).to.deep.equal({ concurrency: 16, maxQueue: 64 });
    expect(share(4, 16)).to.deep.equal({ concurrency: 16, maxQueue: 16 });
    expect(share(3, 16)).to.deep.equal({ concurrency: 16, maxQueue: 22 });
    expect(share(2, 2)).to.deep.equal({ concurrency: 2, maxQueue: 32 });
    expect(share(8, 2, 0)).to.deep.equal({ concurrency: 2, maxQueue: 0 });
  });
});
