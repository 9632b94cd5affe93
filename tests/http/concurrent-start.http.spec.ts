import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { type ChildService, spawnService } from '../support/child-service.js';
import { http, postJson } from '../support/http-client.js';
import { tempDir } from '../support/test-service.js';

const stop = async (service: ChildService) => {
  if (service.process.exitCode !== null) return;
  const exited = once(service.process, 'exit');
  service.process.kill('SIGTERM');
  await exited;
};

describe('HTTP: instances that start together on a fresh DATA_DIR', () => {
  const ROUNDS = 20;

  it(`two processes started at the same instant on a fresh DATA_DIR both serve, with one signing key (${ROUNDS} rounds)`, async function () {
    this.timeout(ROUNDS * 20_000);
    for (let round = 1; round <= ROUNDS; round += 1) {
      const dataDir = tempDir('concurrent-start');
      const started = await Promise.allSettled([spawnService({ DATA_DIR: dataDir }), spawnService({ DATA_DIR: dataDir })]);
      const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      try {
        const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
        expect(failures, `round ${round}`).to.deep.equal([]);
        const [a, b] = running as [ChildService, ChildService];
        const created = await postJson(a.url, '/auth/sign-up', aSignUpBody({ email: `round${round}@example.com` }));
        expect(created.status, `round ${round}: sign-up on the first instance`).to.equal(201);
        const me = await http(b.url, '/auth/me', { method: 'GET', headers: { authorization: `Bearer ${created.body.data.accesstoken}` } });
        expect(me.status, `round ${round}: the second instance accepts the first one's token`).to.equal(200);
        expect((await http(b.url, '/health/ready', { method: 'GET' })).status).to.equal(200);
      } finally {
        await Promise.all(running.map(stop));
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });
});
