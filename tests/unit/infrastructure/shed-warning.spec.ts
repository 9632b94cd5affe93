import { expect } from 'chai';
import { ConcurrencyLimiter } from '../../../src/infrastructure/security/concurrency-limiter.js';
import { shedWarning } from '../../../src/infrastructure/security/shed-warning.js';

const never = () => new Promise<void>(() => undefined);

describe('shed warnings', () => {
  it('the limiter reports every shed request with its stats', async () => {
    const seen: unknown[] = [];
    const limiter = new ConcurrencyLimiter(1, 1, (stats) => seen.push(stats));
    void limiter.run(never);
    void limiter.run(never);
    await limiter.run(never).catch(() => undefined);
    await limiter.run(never).catch(() => undefined);
    expect(seen).to.deep.equal([
      { running: 1, queued: 1, shed: 1 },
      { running: 1, queued: 1, shed: 2 },
    ]);
  });

  it('logs at most one warn line per interval, with queue depth and shed counts', () => {
    const lines: Array<{ fields: unknown; message: string }> = [];
    const logger = { warn: (fields: unknown, message: string) => lines.push({ fields, message }) };
    let now = 10_000;
    const warn = shedWarning(logger as never, 1000, () => now);

    for (let shed = 1; shed <= 50; shed++) warn({ running: 2, queued: 64, shed });
    now += 999;
    warn({ running: 2, queued: 64, shed: 51 });
    now += 1;
    warn({ running: 2, queued: 63, shed: 52 });

    expect(lines).to.deep.equal([
      { fields: { queued: 64, running: 2, shed: 1, shedSinceLastWarning: 1 }, message: 'hashing capacity exhausted: shedding requests with 503' },
      { fields: { queued: 63, running: 2, shed: 52, shedSinceLastWarning: 51 }, message: 'hashing capacity exhausted: shedding requests with 503' },
    ]);
  });
});
