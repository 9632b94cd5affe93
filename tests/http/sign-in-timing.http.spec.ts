import { expect } from 'chai';
import { measureSignInTiming, median } from '../../bench/timing.js';
import { Argon2PasswordHasher } from '../../src/infrastructure/security/argon2-password-hasher.js';
import { aSignUpBody } from '../support/builders.js';
import { postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { aPassword } from '../support/parsed.js';

const DEFAULT_ARGON2 = { ARGON2_MEMORY_KIB: '19456', ARGON2_TIME_COST: '2', ARGON2_PARALLELISM: '1' };


async function medianVerifyMs(samples: number): Promise<number> {
  const hasher = new Argon2PasswordHasher({ memoryKiB: 19456, timeCost: 2, parallelism: 1 });
  const hash = await hasher.hash(aPassword('analytical engine 1843'));
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await hasher.verify(hash, aPassword('not the password'));
    times.push(performance.now() - started);
  }
  return median(times);
}

describe('HTTP: no timing oracle on sign-in (real argon2 at default parameters, statistical)', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ ...DEFAULT_ARGON2, THROTTLE_MAX_FAILURES: '1000', RATE_LIMIT_MAX: '100000' });
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'timing@example.com' }))).status).to.equal(201);
  });
  after(async () => service.dispose());

  it('an unknown e-mail costs about what a wrong password costs, and at least half an argon2 verification', async function () {
    this.timeout(120_000);
    const timing = await measureSignInTiming(service.url, { knownEmail: 'timing@example.com', samples: 15 });
    const verifyMs = await medianVerifyMs(7);
    const report = JSON.stringify({ unknown: timing.medianUnknownEmailMs, wrong: timing.medianWrongPasswordMs, verifyMs });

    expect(timing.statuses, report).to.deep.equal([401]);
    expect(timing.ratio, report).to.be.within(0.5, 2.0);
    expect(timing.medianUnknownEmailMs, report).to.be.at.least(verifyMs / 2);
  });
});
