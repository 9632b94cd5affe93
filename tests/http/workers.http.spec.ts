import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { type ChildService, spawnService } from '../support/child-service.js';
import { http } from '../support/http-client.js';
import { tempDir } from '../support/test-service.js';

/** The worker processes of a primary (its children), by pid. */
const workersOf = (service: ChildService): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(service.process.pid)], { encoding: 'utf8' }).trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves once `count` workers have logged that they listen (the first line is enough for spawnService). */
const allListening = async (service: ChildService, count: number): Promise<void> => {
  const deadline = Date.now() + 20_000;
  while ((service.output().match(/"msg":"Server listening at http:\/\/127\.0\.0\.1/g) ?? []).length < count) {
    if (Date.now() > deadline) throw new Error(`not every worker listens:\n${service.output()}`);
    await sleep(50);
  }
};

/** A request on a connection of its own (`connection: close`), so that the cluster's round robin spreads them. */
const onItsOwn = (url: string, path: string, body: unknown) => http(url, path, { body, headers: { 'content-type': 'application/json', connection: 'close' } });

describe('HTTP: WORKERS processes on one port and one store', function () {
  this.timeout(60_000);
  let dataDir: string;

  beforeEach(() => {
    dataDir = tempDir('workers');
  });

  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('two workers both serve, /metrics adds up what each answered, and SIGTERM ends them all with exit 0', async () => {
    const service = await spawnService({ DATA_DIR: dataDir, WORKERS: '2', LOG_FORMAT: 'json' });
    const workers = workersOf(service);
    try {
      await allListening(service, 2);
      expect(workers).to.have.length(2);
      const account = aSignUpBody({ email: 'workers@example.com' });
      expect((await onItsOwn(service.url, '/auth/sign-up', account)).status).to.equal(201);
      const SIGN_INS = 8;
      for (let i = 0; i < SIGN_INS; i += 1) expect((await onItsOwn(service.url, '/auth/sign-in', { email: account.email, password: account.password })).status).to.equal(201);
      const answeredBy = new Set([...service.output().matchAll(/"worker":(\d+),"reqId":"[^"]+","method":"POST","route":"\/auth\/sign-in","status":201/g)].map((match) => match[1]));
      expect([...answeredBy].sort(), 'sign-ins answered by each worker').to.deep.equal(['0', '1']);
      for (let scrape = 0; scrape < 4; scrape += 1) {
        const metrics = await http(service.url, '/metrics', { method: 'GET', headers: { connection: 'close' } });
        expect(metrics.status).to.equal(200);
        expect(metrics.text, `scrape ${scrape}`).to.match(new RegExp(`^account_sign_in_total\\{outcome="success"\\} ${SIGN_INS}$`, 'm'));
        expect(metrics.text).to.match(/^account_sign_up_total\{outcome="success"\} 1$/m);
      }
    } finally {
      const exited = once(service.process, 'exit');
      service.process.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect(code).to.equal(0);
    }
    expect(workers.filter(alive), 'workers left running').to.deep.equal([]);
    expect(service.output()).to.match(/"worker":0,"signal":"SIGTERM","msg":"shutting down"/);
    expect(service.output()).to.match(/"worker":1,"signal":"SIGTERM","msg":"shutting down"/);
  });

  it('30 simultaneous wrong sign-ins spread over both workers: the first 5 get 401, every other one 429 (the throttle is counted in the one store)', async () => {
    const service = await spawnService({ DATA_DIR: dataDir, WORKERS: '2', LOG_FORMAT: 'json' });
    try {
      await allListening(service, 2);
      const account = aSignUpBody({ email: 'throttled-workers@example.com' });
      expect((await onItsOwn(service.url, '/auth/sign-up', account)).status).to.equal(201);
      const answers = await Promise.all(Array.from({ length: 30 }, () => onItsOwn(service.url, '/auth/sign-in', { email: account.email, password: 'not the password 1843' })));
      const counts: Record<number, number> = {};
      for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
      expect(counts).to.deep.equal({ 401: 5, 429: 25 });
      const answeredBy = new Set([...service.output().matchAll(/"worker":(\d+),"reqId":"[^"]+","method":"POST","route":"\/auth\/sign-in"/g)].map((match) => match[1]));
      expect([...answeredBy].sort(), 'sign-ins answered by each worker').to.deep.equal(['0', '1']);
      expect((await onItsOwn(service.url, '/auth/sign-in', { email: account.email, password: account.password })).status, 'the right password, now throttled').to.equal(429);
    } finally {
      const exited = once(service.process, 'exit');
      service.process.kill('SIGTERM');
      await exited;
    }
  });

  it('hashes in the primary behind one limiter: with HASH_CONCURRENCY 1 and no queue, one of 6 simultaneous sign-ins is hashed, on whichever worker', async () => {
    // argon2id slow enough (64 MiB, 3 passes) that the 6 requests all arrive while the first is hashed.
    const service = await spawnService({ DATA_DIR: dataDir, WORKERS: '2', LOG_FORMAT: 'json', HASH_CONCURRENCY: '1', HASH_QUEUE_MAX: '0', ARGON2_MEMORY_KIB: '65536', ARGON2_TIME_COST: '3' });
    try {
      await allListening(service, 2);
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => onItsOwn(service.url, '/auth/sign-in', { email: `nobody${i}@example.com`, password: 'not the password 1843' })));
      const counts: Record<number, number> = {};
      for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
      // One hash for the machine: a limiter per worker would have let one through on each of the two.
      expect(counts).to.deep.equal({ 401: 1, 503: 5 });
    } finally {
      const exited = once(service.process, 'exit');
      service.process.kill('SIGTERM');
      await exited;
    }
  });

  it('replaces a worker that ends while serving, and keeps serving', async () => {
    const service = await spawnService({ DATA_DIR: dataDir, WORKERS: '2', LOG_FORMAT: 'json' });
    try {
      await allListening(service, 2);
      const [killed] = workersOf(service) as [number];
      process.kill(killed, 'SIGKILL');
      await allListening(service, 3);
      expect(service.output()).to.match(/"role":"primary","worker":\d,"code":null,"signal":"SIGKILL","msg":"a worker ended while serving: starting another"/);
      expect(workersOf(service)).to.have.length(2).and.not.include(killed);
      for (let i = 0; i < 4; i += 1) expect((await onItsOwn(service.url, '/auth/sign-up', aSignUpBody({ email: `after${i}@example.com` }))).status).to.equal(201);
    } finally {
      const exited = once(service.process, 'exit');
      service.process.kill('SIGTERM');
      await exited;
    }
  });

  it('stops every worker, exit 1, when one cannot start (its port is taken)', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as { port: number };
    try {
      const failure = await spawnService({ DATA_DIR: dataDir, WORKERS: '2', LOG_FORMAT: 'json', PORT: String(port) }).then(
        () => null,
        (error: unknown) => String(error),
      );
      expect(failure).to.match(/service exited with 1/);
      expect(failure).to.match(/a worker ended before it served: stopping every worker/);
    } finally {
      taken.close();
    }
  });

  it('refuses WORKERS above 1 on the in-memory store, in one line, before forking anything', async () => {
    const failure = await spawnService({ DATA_DIR: dataDir, WORKERS: '2', STORAGE: 'memory' }).then(
      () => null,
      (error: unknown) => String(error),
    );
    expect(failure).to.match(/service exited with 1: account-service failed to start: Invalid configuration: WORKERS above 1 needs a store the workers share/);
  });

  it("refuses a capability's wrong setting in the primary, before forking, with the one line a single process gives", async () => {
    const failureOf = (env: Record<string, string>) => spawnService({ DATA_DIR: dataDir, LOG_FORMAT: 'json', ...env }).then(
      () => 'the service started',
      (error: unknown) => String(error),
    );
    for (const [variable, value] of [['OAUTH_PROVIDERS', 'Corp'], ['API_KEY_RATE_LIMIT_PER_MINUTE', '0']] as const) {
      const alone = await failureOf({ WORKERS: '1', [variable]: value });
      expect(alone).to.match(new RegExp(`^Error: service exited with 1: account-service failed to start: Invalid configuration: ${variable} [^\\n]*\\n$`));
      // The same output whole: no worker started (none logged, none failed on its own), the primary named the variable.
      expect(await failureOf({ WORKERS: '2', [variable]: value }), variable).to.equal(alone);
    }
  });
});
