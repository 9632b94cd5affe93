import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { type Kill, openShared, running, takeExclusive } from '../../../src/infrastructure/storage/store-lock.js';
import { tempDir } from '../../support/test-service.js';

const failing = (code: string): Kill => () => {
  throw Object.assign(new Error(`kill: ${code}`), { code });
};
const OTHER = 424242; // a pid the injected kill answers for

describe('the store lock: openers share it, a compaction holds it alone (issue 61)', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = tempDir('store-lock')));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a process runs when kill(pid, 0) succeeds or fails with EPERM (another user\'s); not on ESRCH', () => {
    expect(running(OTHER, () => true)).to.equal(true);
    expect(running(OTHER, failing('EPERM')), 'EPERM: it runs, under a user we may not signal').to.equal(true);
    expect(running(OTHER, failing('ESRCH'))).to.equal(false);
    expect(running(process.pid)).to.equal(true);
  });

  it('a compaction is refused while a process of another user (EPERM) has the store open', () => {
    mkdirSync(join(dataDir, 'accounts.lmdb-openers'));
    writeFileSync(join(dataDir, 'accounts.lmdb-openers', `${OTHER}-0a1b2c3d`), '');
    expect(() => takeExclusive(dataDir, failing('EPERM'))).to.throw(`the store is open in process ${OTHER}: stop the service first`);
    expect(existsSync(join(dataDir, 'accounts.lmdb-compacting')), 'the refused compaction leaves no marker').to.equal(false);
  });

  it('an opener whose process is gone (ESRCH) is stale: removed, and the compaction goes ahead', () => {
    mkdirSync(join(dataDir, 'accounts.lmdb-openers'));
    writeFileSync(join(dataDir, 'accounts.lmdb-openers', `${OTHER}-0a1b2c3d`), '');
    const release = takeExclusive(dataDir, failing('ESRCH'));
    expect(readdirSync(join(dataDir, 'accounts.lmdb-openers'))).to.deep.equal([]);
    release();
    expect(existsSync(join(dataDir, 'accounts.lmdb-compacting'))).to.equal(false);
  });

  it('an opener is refused while a compaction of another user (EPERM) runs; a killed compaction\'s marker is stale', () => {
    writeFileSync(join(dataDir, 'accounts.lmdb-compacting'), `${OTHER}\n`);
    expect(() => openShared(dataDir, failing('EPERM'))).to.throw(`the store is being compacted by process ${OTHER} (npm run store:compact)`);
    expect(readdirSync(join(dataDir, 'accounts.lmdb-openers')), 'the refused opener unregisters').to.deep.equal([]);
    openShared(dataDir, failing('ESRCH'))();
    expect(() => takeExclusive(dataDir, failing('EPERM'))).to.throw(`a compaction by process ${OTHER} is already running`);
    takeExclusive(dataDir, failing('ESRCH'))();
  });

  it('in one process: openers share the store, a compaction waits for the last to close, and refuses a second', () => {
    const first = openShared(dataDir);
    const second = openShared(dataDir);
    expect(() => takeExclusive(dataDir)).to.throw(`the store is open in process ${process.pid}: stop the service first`);
    first();
    expect(() => takeExclusive(dataDir)).to.throw(`the store is open in process ${process.pid}`);
    second();
    const release = takeExclusive(dataDir);
    expect(() => takeExclusive(dataDir)).to.throw(`a compaction by process ${process.pid} is already running`);
    expect(() => openShared(dataDir)).to.throw(`the store is being compacted by process ${process.pid}`);
    release();
    openShared(dataDir)();
  });

  it('a lock file says whose it is by its name alone: a second copy of the module (no state shared) sees this process\'s', async () => {
    const copy = new URL('../../../src/infrastructure/storage/store-lock.ts?second-copy', import.meta.url).href;
    const other = (await import(copy)) as typeof import('../../../src/infrastructure/storage/store-lock.js');
    expect(other.takeExclusive, 'a module of its own').to.not.equal(takeExclusive);
    const opened = openShared(dataDir);
    expect(() => other.takeExclusive(dataDir)).to.throw(`the store is open in process ${process.pid}: stop the service first`);
    expect(readdirSync(join(dataDir, 'accounts.lmdb-openers')), 'the opener stays registered').to.have.length(1);
    opened();
    const compacting = other.takeExclusive(dataDir);
    expect(() => openShared(dataDir)).to.throw(`the store is being compacted by process ${process.pid}`);
    compacting();
  });

  it('a file naming this process that this process did not write is a past process\'s (a restarted container\'s pid 1): stale', () => {
    mkdirSync(join(dataDir, 'accounts.lmdb-openers'));
    writeFileSync(join(dataDir, 'accounts.lmdb-openers', `${process.pid}-0a1b2c3d`), '');
    takeExclusive(dataDir)();
    writeFileSync(join(dataDir, 'accounts.lmdb-compacting'), `${process.pid}\n`);
    openShared(dataDir)();
  });
});
