import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { postJson } from '../support/http-client.js';
import { captureLogs } from '../support/log-capture.js';
import { type TestService, startTestService } from '../support/test-service.js';

const BURST = 300;
const SHED_MESSAGE = 'hashing capacity exhausted: shedding requests with 503';

describe('HTTP: bounded hashing under a burst far above capacity', () => {
  let service: TestService;
  const logs = captureLogs('info');
  before(async () => {
    service = await startTestService(
      { HASH_CONCURRENCY: '1', HASH_QUEUE_MAX: '4', ARGON2_MEMORY_KIB: '4096', ARGON2_TIME_COST: '2', RATE_LIMIT_MAX: '100000', THROTTLE_MAX_FAILURES: '1000' },
      { logger: logs.logger },
    );
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'burst@example.com' }))).status).to.equal(201);
  });
  after(async () => service.dispose());

  it(`${BURST} simultaneous sign-ins get only 201, 401 or 503; every 503 at once with Retry-After: 1 and the envelope; shedding is logged`, async function () {
    this.timeout(120_000);
    const started = Date.now();
    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        postJson(service.url, '/auth/sign-in', i % 2 === 0 ? { email: 'burst@example.com', password: 'analytical engine 1843' } : { email: `unknown-${i}@example.com`, password: 'whatever it is' }),
      ),
    );
    const elapsedSeconds = (Date.now() - started) / 1000;
    const statuses = responses.map((res) => res.status);
    const shed = responses.filter((res) => res.status === 503);

    expect([...new Set(statuses)].sort()).to.satisfy((seen: number[]) => seen.every((status) => [201, 401, 503].includes(status)));
    expect(shed.length, 'some requests are shed').to.be.greaterThan(0);
    expect(statuses.filter((status) => status === 201 || status === 401).length, 'some requests are served').to.be.at.least(5);
    for (const res of shed) {
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.body).to.deep.equal({ message: 'Service temporarily unavailable', code: 'OVERLOADED', errors: [{ field: null, message: 'try again shortly' }] });
    }

    const warnings = logs.parsed().filter((line) => line['msg'] === SHED_MESSAGE);
    expect(warnings.length).to.be.within(1, Math.ceil(elapsedSeconds) + 1);
    expect(warnings[0]).to.include({ level: 40, queued: 4, running: 1 });
    expect(warnings[0]?.['shed']).to.be.a('number').and.at.least(1);
    expect(warnings.reduce((sum, line) => sum + Number(line['shedSinceLastWarning']), 0)).to.be.at.most(shed.length);
  });

  it('serves normally once the burst is over', async () => {
    const res = await postJson(service.url, '/auth/sign-in', { email: 'burst@example.com', password: 'analytical engine 1843' });
    expect(res.status).to.equal(201);
  });
});
