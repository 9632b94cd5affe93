import { createServer } from 'node:net';
import { expect } from 'chai';
import { captureLogs } from '../support/log-capture.js';
import { http } from '../support/http-client.js';
import { redisUnavailable, startRedis } from '../support/redis-server.js';
import { type TestService, startTestService } from '../support/test-service.js';

const PASSWORD = 'hunter2-never-in-a-log';

/** A local port where nothing listens (bound, read, closed). */
const closedPort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** The service on RATE_LIMIT_STORE=redis at `url`, its log captured, and how long its start took. */
async function startOn(url: string) {
  const logs = captureLogs('info');
  const started = Date.now();
  const service = await startTestService({ STORAGE: 'memory', RATE_LIMIT_STORE: 'redis', REDIS_URL: url }, { logger: logs.logger });
  return { service, logs, startMs: Date.now() - started };
}

const warnings = (logs: ReturnType<typeof captureLogs>) => logs.parsed().filter((line) => line['level'] === 40 && String(line['msg']).startsWith('rate-limit store (Redis)'));
const readiness = async (service: TestService) => {
  const answer = await http(service.url, '/health/ready', { method: 'GET' });
  return { status: answer.status, body: answer.body as Record<string, unknown> };
};

describe('HTTP: a REDIS_URL that does not work (RATE_LIMIT_STORE=redis, issue 63): a prompt start, the cause logged, readiness degraded', function () {
  this.timeout(30_000);
  const services: TestService[] = [];
  afterEach(async () => {
    for (const service of services.splice(0)) await service.dispose();
  });

  it('nothing listens: starts without waiting out the 5 s bound, logs ECONNREFUSED with host and port and never the password; ready 200, limits degraded', async () => {
    const port = await closedPort();
    const { service, logs, startMs } = await startOn(`redis://:${PASSWORD}@127.0.0.1:${port}`);
    services.push(service);
    expect(startMs, 'the start does not wait for a Redis that refused').to.be.below(4_000);
    const [warning] = warnings(logs);
    expect(warning, logs.lines.join('')).to.include({ redis: `redis://127.0.0.1:${port}`, cause: `connect ECONNREFUSED 127.0.0.1:${port}`, code: 'ECONNREFUSED' });
    expect(await readiness(service)).to.deep.equal({ status: 200, body: { status: 'ready', ratelimits: 'fail-open', checks: { store: 'ok', limits: 'degraded' } } });
    expect(logs.lines.join(''), 'one line for the outage, not one per retry').to.not.include(PASSWORD);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(warnings(logs), 'retries of the same cause add no line').to.have.length(1);
  });

  describe('with a real redis-server that asks for a password', () => {
    let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
    before(async function () {
      const missing = redisUnavailable();
      if (missing) {
        (this.test as unknown as { parent: { skipReason: string } }).parent.skipReason = missing;
        this.skip();
      }
      redis = await startRedis(undefined, ['--requirepass', PASSWORD]);
    });
    after(async () => redis?.stop());

    it('a wrong password: logs WRONGPASS and never either password; ready 200, limits degraded', async () => {
      const wrong = 'wrong-pass-also-secret';
      const { service, logs, startMs } = await startOn(`redis://:${wrong}@127.0.0.1:${redis!.port}`);
      services.push(service);
      expect(startMs).to.be.below(4_000);
      const [warning] = warnings(logs);
      expect(warning?.['redis']).to.equal(`redis://127.0.0.1:${redis!.port}`);
      expect(String(warning?.['cause'])).to.match(/^WRONGPASS /);
      expect(logs.lines.join('')).to.not.include(wrong).and.not.include(PASSWORD);
      expect((await readiness(service)).body).to.deep.include({ ratelimits: 'fail-open', checks: { store: 'ok', limits: 'degraded' } });
    });

    it('no password at all: logs NOAUTH', async () => {
      const { service, logs } = await startOn(`redis://127.0.0.1:${redis!.port}`);
      services.push(service);
      expect(String(warnings(logs)[0]?.['cause'])).to.match(/^NOAUTH /);
    });

    it('TLS (rediss://) to a Redis that speaks none: the failure is logged with its cause and code, and the start waits at most the connect timeout', async () => {
      const { service, logs, startMs } = await startOn(`rediss://:${PASSWORD}@127.0.0.1:${redis!.port}`);
      services.push(service);
      expect(startMs, 'the connect timeout (2 s), not the 5 s bound').to.be.below(5_000);
      const [warning] = warnings(logs);
      expect(warning, logs.lines.join('')).to.have.property('redis', `rediss://127.0.0.1:${redis!.port}`);
      expect(warning?.['cause']).to.be.a('string').and.not.equal('');
      expect(warning?.['code']).to.be.a('string');
      expect(logs.lines.join('')).to.not.include(PASSWORD);
      expect((await readiness(service)).body['checks']).to.deep.equal({ store: 'ok', limits: 'degraded' });
    });

    it('the right password: no warning, ready 200 with the limits shared and ok', async () => {
      const { service, logs } = await startOn(`redis://:${PASSWORD}@127.0.0.1:${redis!.port}`);
      services.push(service);
      expect(warnings(logs)).to.deep.equal([]);
      expect(await readiness(service)).to.deep.equal({ status: 200, body: { status: 'ready', ratelimits: 'shared', checks: { store: 'ok', limits: 'ok' } } });
    });
  });
});
