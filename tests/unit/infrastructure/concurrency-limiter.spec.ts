import { expect } from 'chai';
import { ServiceUnavailable } from '../../../src/application/errors.js';
import { ConcurrencyLimiter } from '../../../src/infrastructure/security/concurrency-limiter.js';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('ConcurrencyLimiter', () => {
  it('runs at most `concurrency` tasks at once, queues up to `maxQueue`, and sheds the rest at once', async () => {
    const limiter = new ConcurrencyLimiter(2, 1);
    const gates = [deferred(), deferred(), deferred()];
    let started = 0;
    const tasks = gates.map((gate) =>
      limiter.run(async () => {
        started += 1;
        await gate.promise;
      }),
    );
    await Promise.resolve();
    expect(started).to.equal(2);
    expect(limiter.stats()).to.deep.equal({ running: 2, queued: 1, shed: 0 });

    const shed = await limiter.run(() => Promise.resolve('never')).catch((error: unknown) => error);
    expect(shed).to.be.instanceOf(ServiceUnavailable);
    expect((shed as ServiceUnavailable).retryAfterSeconds).to.equal(1);
    expect(limiter.stats().shed).to.equal(1);

    gates.forEach((gate) => gate.resolve());
    await Promise.all(tasks);
    expect(started).to.equal(3);
    expect(limiter.stats()).to.deep.equal({ running: 0, queued: 0, shed: 1 });
  });

  it('frees its slot when a task fails', async () => {
    const limiter = new ConcurrencyLimiter(1, 0);
    await limiter.run(() => Promise.reject(new Error('boom'))).catch(() => undefined);
    expect(await limiter.run(() => Promise.resolve(42))).to.equal(42);
    expect(limiter.stats().running).to.equal(0);
  });

  it('admits while a task would run or queue, and refuses (counted as shed) once it would be shed', async () => {
    const limiter = new ConcurrencyLimiter(1, 1);
    const gate = deferred();
    limiter.admit();
    const running = limiter.run(() => gate.promise);
    limiter.admit();
    const queued = limiter.run(() => Promise.resolve());
    expect(() => limiter.admit()).to.throw(ServiceUnavailable);
    expect(limiter.stats()).to.deep.equal({ running: 1, queued: 1, shed: 1 });
    gate.resolve();
    await Promise.all([running, queued]);
    limiter.admit();
  });
});
