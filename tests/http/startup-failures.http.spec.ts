import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { compileService, spawnService } from '../support/child-service.js';
import { startTestService, tempDir } from '../support/test-service.js';

const startFailure = async (env: Record<string, string>): Promise<string> => {
  try {
    const service = await startTestService(env);
    await service.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the service started');
};

const SIGNING_KEY = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

const isRoot = () => process.getuid?.() === 0;

describe('HTTP: start-up failures name the variable and the reason, on one line', () => {
  let scratch: string;
  beforeEach(() => (scratch = tempDir('startup')));
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('DATA_DIR that is a file', async () => {
    const file = join(scratch, 'plain-file');
    writeFileSync(file, 'x');
    const message = await startFailure({ DATA_DIR: file });
    expect(message).to.equal(`DATA_DIR=${file}: exists and is not a directory (EEXIST)`);
  });

  it('DATA_DIR missing, under a file so that it cannot be created', async () => {
    writeFileSync(join(scratch, 'file'), 'x');
    const dir = join(scratch, 'file', 'data');
    const message = await startFailure({ DATA_DIR: dir });
    expect(message).to.match(new RegExp(`^DATA_DIR=${dir}: .*\\((ENOTDIR|EEXIST|ENOENT)\\)$`));
  });

  it('DATA_DIR on a read-only filesystem (needs root to mount a read-only tmpfs)', async function () {
    const dir = join(scratch, 'ro');
    mkdirSync(dir);
    try {
      if (!isRoot()) throw new Error('not running as root');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', dir], { stdio: 'pipe' });
    } catch (error) {
      (this.test as unknown as { skipReason: string }).skipReason = `cannot mount a read-only tmpfs: ${(error as Error).message}`;
      this.skip();
    }
    try {
      const message = await startFailure({ DATA_DIR: dir });
      expect(message).to.equal(`DATA_DIR=${dir}: is on a read-only filesystem (EROFS)`);
    } finally {
      execFileSync('umount', [dir]);
    }
  });

  it('HOST that is not resolvable, as the process reports it: one line on stderr, exit code 1', async function () {
    this.timeout(30_000);
    const error = await spawnService({ DATA_DIR: scratch, HOST: 'bogus.invalid' }).then(
      () => new Error('the service started'),
      (failure: Error) => failure,
    );
    expect(error.message).to.match(/^service exited with 1: /);
    const lines = error.message.replace(/^service exited with 1: /, '').split('\n').filter((line) => line.includes('failed to start'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^account-service failed to start: HOST=bogus\.invalid: cannot listen on this address \((ENOTFOUND|EAI_AGAIN)/);
  });

  it('a PERSONAL_DATA_KEY other than the one the store is sealed under: one line, exit code 1, while an instance with the right key serves', async function () {
    this.timeout(30_000);
    const first = await startTestService({ DATA_DIR: scratch, PERSONAL_DATA_KEY: 'the key every instance is given, 32+' });
    try {
      const error = await spawnService({ DATA_DIR: scratch, PERSONAL_DATA_KEY: 'another key, given to one instance by mistake' }).then(
        () => new Error('the service started'),
        (failure: Error) => failure,
      );
      expect(error.message).to.match(/^service exited with 1: /);
      const lines = error.message.split('\n').filter((line) => line.includes('failed to start'));
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include('PERSONAL_DATA_KEY is not the key this store').and.include('docs/security.md').and.not.include('another key');
      const second = await startTestService({ DATA_DIR: scratch, PERSONAL_DATA_KEY: 'the key every instance is given, 32+' });
      await second.close();
    } finally {
      await first.close();
    }
  });

  it('production with nothing set: every missing setting at once, a line each, keys with their commands, exit code 1, no mail directory made', async function () {
    this.timeout(30_000);
    const error = await spawnService({ DATA_DIR: scratch, NODE_ENV: 'production' }).then(
      () => new Error('the service started'),
      (failure: Error) => failure,
    );
    expect(error.message).to.match(/^service exited with 1: /);
    const output = error.message.replace(/^service exited with 1: /, '').split('\n');
    const first = output.findIndex((line) => line.includes('failed to start'));
    expect(output.filter((line) => line.includes('failed to start'))).to.deep.equal(['account-service failed to start: Invalid configuration, 3 problems:']);
    const problems = output.slice(first + 1, first + 4);
    expect(problems[0]).to.match(/^ {2}- SMTP_URL is required when NODE_ENV=production/).and.include('MAIL_TRANSPORT=file');
    expect(problems[1]).to.match(/^ {2}- JWT_PRIVATE_KEY_FILE \(or JWT_PRIVATE_KEY\) is required/).and.include('openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt > jwt.pem');
    expect(problems[2]).to.match(/^ {2}- PERSONAL_DATA_KEY \(or PERSONAL_DATA_KEY_FILE\) is required/).and.include('openssl rand -base64 48');
    expect(existsSync(join(scratch, 'mail'))).to.equal(false);
  });

  for (const [dataDir, env] of [
    ['/proc/x', {}],
    ['/proc/x/y', { NODE_ENV: 'production', JWT_PRIVATE_KEY: SIGNING_KEY, PERSONAL_DATA_KEY: 'a key of 32 characters or more, for the test', MAIL_TRANSPORT: 'file' }],
  ] as const) {
    it(`DATA_DIR=${dataDir}${'NODE_ENV' in env ? ' in production' : ''} (a directory that refuses new entries): exit code 1 within 5 s, naming DATA_DIR`, async function () {
      if (!existsSync('/proc/self')) this.skip();
      this.timeout(60_000);
      await compileService();
      const started = Date.now();
      const error = await spawnService({ ...env, DATA_DIR: dataDir }).then(
        () => new Error('the service started'),
        (failure: Error) => failure,
      );
      expect(Date.now() - started).to.be.below(5_000);
      const lines = error.message.replace(/^service exited with 1: /, '').split('\n').filter((line) => line.includes('failed to start'));
      expect(error.message).to.match(/^service exited with 1: /);
      expect(lines).to.deep.equal([`account-service failed to start: DATA_DIR=${dataDir}: does not exist and cannot be created (ENOENT)`]);
    });
  }
});
