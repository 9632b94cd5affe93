import { expect } from 'chai';
import { type ChildService, killHard, spawnService } from '../support/child-service.js';
import { http, postJson } from '../support/http-client.js';
import { redisUnavailable, startRedis } from '../support/redis-server.js';
import { tempDir } from '../support/test-service.js';
import { rmSync } from 'node:fs';

/** A cheap request that the /auth/* limit counts: `{}` to sign-in answers 400 (or 429 once the limit is reached). */
const aRequest = (service: ChildService) => postJson(service.url, '/auth/sign-in', {});

describe('HTTP: per-client limits shared through a real Redis (RATE_LIMIT_STORE=redis, issue 55)', function () {
  this.timeout(120_000);
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  // Two processes, as two instances are: anything kept per process (a counter in memory) is not shared between them.
  const services: ChildService[] = [];
  const dataDir = tempDir('shared-limits');

  before(async function () {
    const missing = redisUnavailable();
    if (missing) {
      (this.test as unknown as { parent: { skipReason: string } }).parent.skipReason = missing;
      this.skip();
    }
    redis = await startRedis();
    for (let i = 0; i < 2; i++) services.push(await spawnService({ DATA_DIR: dataDir, RATE_LIMIT_STORE: 'redis', REDIS_URL: redis.url, RATE_LIMIT_MAX: '10', RATE_LIMIT_WINDOW: '1 minute' }));
    expect(new Set(services.map((service) => service.process.pid)).size).to.equal(2);
  });
  after(async () => {
    for (const service of services) await killHard(service.process);
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('two instances on one Redis enforce one limit together: of 30 simultaneous requests over a limit of 10, exactly 10 pass', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => aRequest(services[i % 2]!)));
    expect(answers.filter((answer) => answer.status === 400)).to.have.length(10);
    expect(answers.filter((answer) => answer.status === 429)).to.have.length(20);
    for (const service of services) {
      const eleventh = await aRequest(service);
      expect([eleventh.status, eleventh.headers['x-ratelimit-limit']]).to.deep.equal([429, '10']);
      expect(Number(eleventh.headers['retry-after'])).to.be.within(1, 60);
    }
  });

  it('with Redis down, answers within 5 s and never 500 (fail open, metric 0); with Redis back, the shared limit returns within seconds', async () => {
    const port = redis!.port;
    await redis!.stop();
    const started = Date.now();
    const during = await Promise.all(Array.from({ length: 12 }, (_, i) => aRequest(services[i % 2]!)));
    expect(Date.now() - started).to.be.below(5_000);
    expect(during.every((answer) => answer.status === 400), during.map((answer) => answer.status).join(',')).to.equal(true);
    expect((await http(services[0]!.url, '/metrics', { method: 'GET' })).text).to.match(/account_rate_limit_store_up 0/);
    const readiness = await http(services[1]!.url, '/health/ready', { method: 'GET' });
    expect([readiness.status, readiness.body.ratelimits, readiness.body.checks], 'still ready, and says which').to.deep.equal([200, 'fail-open', { store: 'ok', limits: 'degraded' }]);
    redis = await startRedis(port);
    const deadline = Date.now() + 10_000;
    let limited = false;
    while (!limited && Date.now() < deadline) {
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => aRequest(services[i % 2]!)));
      limited = answers.some((answer) => answer.status === 429);
      if (!limited) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(limited, 'the shared limit is back').to.equal(true);
    const back = (await http(services[0]!.url, '/health/ready', { method: 'GET' })).body;
    expect([back.ratelimits, back.checks]).to.deep.equal(['shared', { store: 'ok', limits: 'ok' }]);
  });
});
