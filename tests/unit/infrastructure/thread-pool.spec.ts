import { availableParallelism } from 'node:os';
import { expect } from 'chai';
import { hashConcurrencyOf, hashThreadNiceOf, sizeThreadPool, threadPoolSizeFor } from '../../../src/infrastructure/config/thread-pool.cjs';

describe('thread pool sizing (src/start.cts runs it before anything starts the pool)', () => {
  it('sizes the pool to HASH_CONCURRENCY plus four threads for file-system and DNS work', () => {
    const env: Record<string, string | undefined> = { HASH_CONCURRENCY: '12' };
    expect(sizeThreadPool(env)).to.equal(16);
    expect(env['UV_THREADPOOL_SIZE']).to.equal('16');
  });

  it('keeps a larger UV_THREADPOOL_SIZE already set, and replaces a smaller one', () => {
    expect(sizeThreadPool({ HASH_CONCURRENCY: '2', UV_THREADPOOL_SIZE: '64' })).to.equal(64);
    expect(sizeThreadPool({ HASH_CONCURRENCY: '32', UV_THREADPOOL_SIZE: '4' })).to.equal(36);
  });

  it('reads HASH_CONCURRENCY as the configuration does; an unreadable value gives the default (the configuration then refuses it)', () => {
    expect(hashConcurrencyOf({})).to.equal(availableParallelism());
    expect(hashConcurrencyOf({ HASH_CONCURRENCY: ' 7 ' })).to.equal(7);
    for (const bad of ['0', '257', '1.5', 'many']) expect(hashConcurrencyOf({ HASH_CONCURRENCY: bad }), bad).to.equal(availableParallelism());
    expect(threadPoolSizeFor(256)).to.equal(260);
  });

  it('reads HASH_THREAD_NICE from 0 to 19, 0 otherwise', () => {
    expect([hashThreadNiceOf({}), hashThreadNiceOf({ HASH_THREAD_NICE: '10' }), hashThreadNiceOf({ HASH_THREAD_NICE: '20' }), hashThreadNiceOf({ HASH_THREAD_NICE: '-1' })]).to.deep.equal([0, 10, 0, 0]);
  });
});
