import { chownSync, chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { compactStore } from '../../tools/compact-store.js';
import { takeExclusive } from '../../src/infrastructure/storage/store-lock.js';
import { aSignUpBody } from '../support/builders.js';
import { killHard, spawnService } from '../support/child-service.js';
import { postJson } from '../support/http-client.js';
import { type TestService, startTestService, tempDir } from '../support/test-service.js';

const PASSWORD = 'analytical engine 1843';
const env = { STORAGE: 'lmdb', RATE_LIMIT_MAX: '10000' };
const isRoot = () => process.getuid?.() === 0;

/** Signs up `count` new accounts; resolves to the addresses whose sign-up was acknowledged (201). */
async function signUps(service: TestService, label: string, count: number): Promise<string[]> {
  const addresses = Array.from({ length: count }, (_, index) => `${label}-${index}@compact.example`);
  const statuses = await Promise.all(addresses.map(async (email) => (await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }))).status));
  return addresses.filter((_, index) => statuses[index] === 201);
}

/** The addresses of `acknowledged` that cannot sign in to a service started on `dataDir`. */
async function lost(dataDir: string, acknowledged: string[]): Promise<string[]> {
  const service = await startTestService({ ...env, DATA_DIR: dataDir });
  try {
    const statuses = await Promise.all(acknowledged.map(async (email) => (await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD })).status));
    return acknowledged.filter((_, index) => statuses[index] !== 201);
  } finally {
    await service.close();
  }
}

describe('store:compact holds the store exclusively for its whole run and keeps the file\'s owner and mode (issue 61)', function () {
  this.timeout(60_000);
  let dataDir: string;
  let service: TestService | undefined;
  beforeEach(() => (dataDir = tempDir('compact')));
  afterEach(async () => {
    await service?.close();
    service = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a service started during the copy is refused, on one line naming DATA_DIR; no acknowledged sign-up is lost', async () => {
    service = await startTestService({ ...env, DATA_DIR: dataDir });
    const acknowledged = await signUps(service, 'before', 5);
    await service.close();
    service = undefined;

    let refusal = '';
    await compactStore(dataDir, {
      beforeRename: async () => {
        try {
          const during = await startTestService({ ...env, DATA_DIR: dataDir });
          acknowledged.push(...(await signUps(during, 'during', 5)));
          await during.close();
        } catch (error) {
          refusal = (error as Error).message;
        }
      },
    });

    expect(await lost(dataDir, acknowledged), 'acknowledged sign-ups missing after the compaction').to.deep.equal([]);
    expect(refusal).to.match(new RegExp(`^DATA_DIR=${dataDir}: the store is being compacted by process ${process.pid} \\(npm run store:compact\\)`));
    expect(refusal).to.not.include('\n');
  });

  it('refuses while a service has the store open, and leaves the store as it was', async () => {
    service = await startTestService({ ...env, DATA_DIR: dataDir });
    const acknowledged = await signUps(service, 'open', 3);
    const before = statSync(join(dataDir, 'accounts.lmdb'));
    const error = await compactStore(dataDir).then(() => new Error('the compaction ran'), (failure: Error) => failure);
    expect(error.message).to.match(new RegExp(`the store is open in process ${process.pid}\\b.*stop the service first`));
    expect(statSync(join(dataDir, 'accounts.lmdb')).ino, 'the same file').to.equal(before.ino);
    acknowledged.push(...(await signUps(service, 'after', 3)));
    await service.close();
    service = undefined;
    expect(await lost(dataDir, acknowledged)).to.deep.equal([]);
  });

  it('refuses while a service of another user has the store open (kill(pid, 0) fails with EPERM)', async () => {
    service = await startTestService({ ...env, DATA_DIR: dataDir });
    await service.close();
    service = undefined;
    mkdirSync(join(dataDir, 'accounts.lmdb-openers'), { recursive: true });
    writeFileSync(join(dataDir, 'accounts.lmdb-openers', '424242-0a1b2c3d'), '');
    const eperm = () => {
      throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' });
    };
    const error = await compactStore(dataDir, { kill: eperm }).then(() => new Error('the compaction ran'), (failure: Error) => failure);
    expect(error.message).to.equal('the store is open in process 424242: stop the service first');
  });

  it('as processes: a running service makes it refuse; a service started meanwhile exits 1 with one line; a killed one is stale', async function () {
    this.timeout(120_000);
    const child = await spawnService({ DATA_DIR: dataDir });
    const refused = await compactStore(dataDir).then(() => new Error('the compaction ran'), (failure: Error) => failure);
    expect(refused.message).to.equal(`the store is open in process ${child.process.pid}: stop the service first`);
    await killHard(child.process);

    const release = takeExclusive(dataDir);
    try {
      const error = await spawnService({ DATA_DIR: dataDir }).then(() => new Error('the service started'), (failure: Error) => failure);
      expect(error.message).to.match(/^service exited with 1: /);
      const lines = error.message.split('\n').filter((line) => line.includes('failed to start'));
      expect(lines).to.deep.equal([`account-service failed to start: DATA_DIR=${dataDir}: the store is being compacted by process ${process.pid} (npm run store:compact): start the service once it has finished`]);
    } finally {
      release();
    }
    await compactStore(dataDir);
  });

  it('keeps the store file\'s mode (0600 stays 0600)', async () => {
    service = await startTestService({ ...env, DATA_DIR: dataDir });
    await service.close();
    service = undefined;
    const path = join(dataDir, 'accounts.lmdb');
    chmodSync(path, 0o600);
    await compactStore(dataDir);
    expect((statSync(path).mode & 0o7777).toString(8)).to.equal('600');
  });

  it('keeps the store file\'s owner when run by root (a store of uid 65534 stays 65534\'s)', async function () {
    if (!isRoot()) {
      (this.test as unknown as { skipReason: string }).skipReason = 'needs root to give the store to another user';
      this.skip();
    }
    service = await startTestService({ ...env, DATA_DIR: dataDir });
    await service.close();
    service = undefined;
    const path = join(dataDir, 'accounts.lmdb');
    chownSync(path, 65534, 65534);
    chmodSync(path, 0o640);
    await compactStore(dataDir);
    const after = statSync(path);
    expect({ uid: after.uid, gid: after.gid, mode: (after.mode & 0o7777).toString(8) }).to.deep.equal({ uid: 65534, gid: 65534, mode: '640' });
  });
});
