import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService, tempDir } from '../support/test-service.js';

const PASSWORD = 'analytical engine 1843';

/** Writes zeros into `file` until the filesystem refuses (ENOSPC): the disk is then really full. */
const fillDisk = (file: string): number => {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(16 * 1024);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return written;
};

const ready = async (url: string) => (await http(url, '/health/ready', { method: 'GET' })).status;

describe('HTTP: a really full disk under the embedded store (a tmpfs of 8 MiB)', function () {
  this.timeout(60_000);
  let mountPoint: string;
  let mounted = false;
  let service: TestService | undefined;

  before(function () {
    mountPoint = tempDir('full-disk');
    try {
      if (process.getuid?.() !== 0) throw new Error('not running as root');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint], { stdio: 'pipe' });
      mounted = true;
    } catch (error) {
      (this.test as unknown as { parent: { skipReason: string } }).parent.skipReason = `needs a small tmpfs mounted by the test: ${(error as Error).message}`;
      this.skip();
    }
  });

  after(async () => {
    await service?.close();
    if (mounted) execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('stays up: failing writes answer 503, readiness 503, reads go on; once space returns every account answers and writes succeed again', async () => {
    const dataDir = join(mountPoint, 'data');
    mkdirSync(dataDir);
    service = await startTestService({ DATA_DIR: dataDir, MIN_FREE_DISK_BYTES: '262144', LOG_LEVEL: 'silent' });
    const acknowledged: string[] = [];
    let firstToken = '';
    for (let i = 0; i < 20; i += 1) {
      const res = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: `before${i}@example.com` }));
      expect(res.status).to.equal(201);
      firstToken ||= res.body.data.accesstoken as string;
      acknowledged.push(`before${i}@example.com`);
    }
    expect(await ready(service.url)).to.equal(200);

    const ballast = join(mountPoint, 'ballast');
    expect(fillDisk(ballast)).to.be.greaterThan(0);
    expect(await ready(service.url), 'readiness below MIN_FREE_DISK_BYTES').to.equal(503);

    const refused = [];
    for (let i = 0; i < 400 && refused.length < 3; i += 1) {
      const res = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: `during${i}@example.com` }));
      if (res.status === 201) acknowledged.push(`during${i}@example.com`);
      else refused.push(res);
    }
    expect(refused, 'some writes must fail on a full disk').to.have.length(3);
    for (const res of refused) {
      expect(res.status).to.equal(503);
      expect(res.headers['retry-after']).to.equal('5');
      expect(res.body).to.deep.equal({ message: 'Service temporarily unavailable', code: 'STORE_UNAVAILABLE', errors: [{ field: null, message: 'store unavailable' }] });
    }
    expect(await ready(service.url)).to.equal(503);
    expect((await http(service.url, '/health/live', { method: 'GET' })).status).to.equal(200);
    const me = await http(service.url, '/auth/me', { method: 'GET', headers: { authorization: `Bearer ${firstToken}` } });
    expect(me.status, 'reads keep working').to.equal(200);

    rmSync(ballast);
    const deadline = Date.now() + 15_000;
    while ((await ready(service.url)) !== 200) {
      expect(Date.now(), 'readiness recovers without a restart').to.be.below(deadline);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    for (const email of acknowledged) {
      const res = await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD });
      expect(res.status, email).to.equal(201);
    }
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'after@example.com' }))).status).to.equal(201);
  });
});
