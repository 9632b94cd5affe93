import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { killHard, spawnService } from '../support/child-service.js';
import { postJson } from '../support/http-client.js';
import { startTestService, tempDir } from '../support/test-service.js';

describe('HTTP: durability on the embedded store', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = tempDir('durability')));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('an account survives a graceful restart on the same DATA_DIR, and its old token key still signs', async () => {
    const first = await startTestService({ DATA_DIR: dataDir });
    const created = await postJson(first.url, '/auth/sign-up', aSignUpBody());
    expect(created.status).to.equal(201);
    await first.close();

    const second = await startTestService({ DATA_DIR: dataDir });
    try {
      const res = await postJson(second.url, '/auth/sign-in', { email: 'ada@example.com', password: 'analytical engine 1843' });
      expect(res.status).to.equal(201);
      expect(res.body.data.user).to.deep.equal(created.body.data.user);
      const again = await postJson(second.url, '/auth/sign-up', aSignUpBody());
      expect(again.status).to.equal(409);
    } finally {
      await second.close();
    }
  });

  it('an account acknowledged with 201 survives kill -9 right after the response', async function () {
    this.timeout(60_000);
    const first = await spawnService({ DATA_DIR: dataDir });
    const created = await postJson(first.url, '/auth/sign-up', aSignUpBody());
    await killHard(first.process);
    expect(created.status).to.equal(201);

    const second = await spawnService({ DATA_DIR: dataDir });
    try {
      const res = await postJson(second.url, '/auth/sign-in', { email: 'ada@example.com', password: 'analytical engine 1843' });
      expect(res.status).to.equal(201);
      expect(res.body.data.user.id).to.equal(created.body.data.user.id);
    } finally {
      await killHard(second.process);
    }
  });

  it('stops gracefully on SIGTERM: finishes and exits 0', async function () {
    this.timeout(60_000);
    const child = await spawnService({ DATA_DIR: dataDir });
    const exited = new Promise<number | null>((resolve) => child.process.once('exit', resolve));
    child.process.kill('SIGTERM');
    expect(await exited).to.equal(0);
    expect(child.output()).to.include('shutting down');
  });

  it('lets an in-flight sign-up finish when asked to stop, then refuses new connections', async () => {
    const service = await startTestService({ DATA_DIR: dataDir, ARGON2_MEMORY_KIB: '65536', ARGON2_TIME_COST: '3' });
    const arrived = once(service.app.server, 'request');
    const inFlight = postJson(service.url, '/auth/sign-up', aSignUpBody());
    await arrived;
    await service.close();
    expect((await inFlight).status).to.equal(201);
    const refused = await postJson(service.url, '/auth/sign-in', {}).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).to.equal('refused');
  });
});
