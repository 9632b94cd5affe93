import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { Container, ContainerModule } from 'inversify';
import { CLOCK } from '../../../src/application/ports/clock.port.js';
import { PORT_TOKENS } from '../../../src/application/ports/ports.js';
import { TOKEN_VERIFIER } from '../../../src/application/ports/token-verifier.port.js';
import { loadConfig } from '../../../src/infrastructure/config/config.js';
import { applicationModule } from '../../../src/infrastructure/container/application.module.js';
import { portBinder, portGetter } from '../../../src/infrastructure/container/bind-port.js';
import { coreModule } from '../../../src/infrastructure/container/core.module.js';
import { jobsModule } from '../../../src/infrastructure/container/jobs.module.js';
import { securityModule } from '../../../src/infrastructure/container/security.module.js';
import { storageModule } from '../../../src/infrastructure/container/storage.module.js';
import { JOBS, KEY_RING, USE_CASES } from '../../../src/infrastructure/container/tokens.js';
import { openStorage as openLmdbStorage } from '../../../src/infrastructure/lmdb/lmdb-storage.js';
import { openStorage as openMemoryStorage } from '../../../src/infrastructure/memory/memory-storage.js';
import { JwtTokenVerifier } from '../../../src/infrastructure/security/jwt-token-verifier.js';
import type { Storage } from '../../../src/infrastructure/storage/storage.js';
import { captureLogs } from '../../support/log-capture.js';
import { tempDir } from '../../support/test-service.js';

/**
 * Compile-time guarantees of the one binding style, checked by `npm run typecheck`: each `@ts-expect-error` below
 * fails the type-check if the line under it ever compiles.
 */
export const wrongBindings = new ContainerModule(({ bind, isBound }) => {
  const bindPort = portBinder(bind, isBound);
  // @ts-expect-error a port's token only takes a value of the port's type
  bindPort(TOKEN_VERIFIER, () => 42);
  // @ts-expect-error a constructor's arguments are checked against the tokens read: a clock is not a key ring
  bindPort(TOKEN_VERIFIER, (get) => new JwtTokenVerifier(get(CLOCK), { issuer: 'i', audience: 'a' }, get(CLOCK)));
});

const wired = (storage: Storage, env: Record<string, string> = {}) => {
  const config = loadConfig({ NODE_ENV: 'test', STORAGE: 'memory', ...env });
  const container = new Container();
  container.load(coreModule({ config, logger: captureLogs('silent').logger }), securityModule, applicationModule, jobsModule, storageModule(storage));
  return portGetter(container);
};

describe('The container', () => {
  it('binds every port, the use cases and the jobs list, over the in-memory storage', async () => {
    const storage = await openMemoryStorage();
    const get = wired(storage);
    for (const [name, token] of Object.entries(PORT_TOKENS)) expect(get(token as symbol), name).to.not.equal(undefined);
    expect(get(USE_CASES).deliverMail).to.have.property('execute');
    expect(get(KEY_RING).publicKeys()).to.have.length(1);
    expect(get(JOBS).map((job) => job.name), 'no pruner: no retention sweep').to.deep.equal(['session sweep', 'expiry sweep', 'unverified-account sweep', 'address index', 'mail dispatch']);
    await storage.close();
  });

  it('adds the retention sweep where the storage has a pruner (LMDB)', async () => {
    const dir = tempDir('container');
    const storage = await openLmdbStorage({ storage: { dataDir: dir, minFreeBytes: 0 } });
    try {
      const get = wired(storage, { STORAGE: 'lmdb', DATA_DIR: dir });
      expect(get(JOBS).map((job) => job.name)).to.deep.equal(['session sweep', 'expiry sweep', 'unverified-account sweep', 'address index', 'event retention sweep', 'mail dispatch']);
      expect(get(JOBS).map((job) => job.intervalMs)).to.deep.equal([300_000, 300_000, 300_000, 300_000, 3_600_000, 1_000]);
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
