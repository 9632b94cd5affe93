import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { MIGRATIONS } from '../../src/infrastructure/postgres/postgres-store.js';
import { migrateStore } from '../../tools/migrate-store.js';
import { aSignUpBody } from '../support/builders.js';
import { killHard, spawnService } from '../support/child-service.js';
import { http, postJson } from '../support/http-client.js';
import { type PostgresCluster, createDatabase, describeWithPostgres, skipWithoutPostgres, sql, startPostgres } from '../support/postgres.js';
import { rejection } from '../support/rejection.js';
import { type TcpProxy, startTcpProxy } from '../support/tcp-proxy.js';
import { sharedStoreCases } from '../support/shared-store-cases.js';
import { type TestService, startTestService, tempDir } from '../support/test-service.js';
import { aTestKey } from '../support/tokens.js';

const PASSWORD = 'analytical engine 1843';
/** What instances share besides the database (the Compose file's `keys` volume): the signing key and the personal-data key. */
const KEYS = { JWT_PRIVATE_KEY: aTestKey().privatePem, PERSONAL_DATA_KEY: 'a personal data key for the PostgreSQL tests, 32+' };

let emails = 0;
const freshEmail = (label = 'pg') => `${label}${++emails}-${Date.now()}@example.com`;

const signUp = (url: string, email: string) => postJson(url, '/auth/sign-up', aSignUpBody({ email }));
const signIn = (url: string, email: string) => postJson(url, '/auth/sign-in', { email, password: PASSWORD });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const me = async (url: string, token: string) => (await http(url, '/auth/me', { method: 'GET', headers: bearer(token) })).status;
const ready = async (url: string) => (await http(url, '/health/ready', { method: 'GET' })).status;

/** Sign-ups of fresh addresses, `lanes` at a time, until `stop()`; what each was answered (never throws for a status). */
const signUpsUntil = (url: string, lanes: number, label: string) => {
  let running = true;
  const answers: Array<{ email: string; status: number }> = [];
  const lane = async () => {
    while (running) {
      const email = freshEmail(label);
      const status = await signUp(url, email).then(
        (res) => res.status,
        () => 0, // the connection itself failed (the process was killed): no answer, so nothing acknowledged
      );
      answers.push({ email, status });
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, lane));
  return {
    answers,
    stop: async () => {
      running = false;
      await done;
      return answers;
    },
  };
};

describeWithPostgres('HTTP on PostgreSQL: the service on a real server (argon2, JWT, its own pool)', (clusterUrl) => {
  let url: string;
  const dirs: string[] = [];
  const env = () => {
    const dataDir = tempDir('pg-http');
    dirs.push(dataDir);
    return { STORAGE: 'postgres', DATABASE_URL: url, DATA_DIR: dataDir, ...KEYS };
  };

  before(async function () {
    this.timeout(30_000);
    url = await createDatabase(clusterUrl(), 'http');
  });
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  sharedStoreCases(env, freshEmail);

  it('keeps no password, address or token in the clear in any row', async () => {
    const service = await startTestService(env());
    try {
      const email = freshEmail('clear');
      const created = await signUp(service.url, email);
      const signedIn = await signIn(service.url, email);
      expect([created.status, signedIn.status]).to.deep.equal([201, 201]);
      const secrets = [PASSWORD, email, created.body.data.accesstoken, signedIn.body.data.accesstoken, signedIn.body.data.refreshtoken].filter(Boolean) as string[];
      expect(secrets.length).to.be.at.least(4);
      const found = await sql<{ tbl: string }>(
        url,
        'SELECT DISTINCT tbl FROM store_rows WHERE ' + secrets.map((_, i) => `position($${i + 1}::bytea in value) > 0`).join(' OR '),
        secrets.map((secret) => Buffer.from(secret)),
      );
      const entries = await sql(url, 'SELECT tbl FROM store_entries WHERE ' + secrets.map((_, i) => `strpos(entry, $${i + 1}) > 0`).join(' OR '), secrets);
      expect({ rows: found, entries }).to.deep.equal({ rows: [], entries: [] });
    } finally {
      await service.close();
    }
  });

  it('kill -9 under load loses no acknowledged write: every sign-up answered 201 signs in after a restart', async function () {
    this.timeout(90_000);
    const shared = env();
    const first = await spawnService(shared);
    const load = signUpsUntil(first.url, 8, 'kill');
    while (load.answers.filter((answer) => answer.status === 201).length < 40) await sleep(20);
    await killHard(first.process);
    const answers = await load.stop();
    const acknowledged = answers.filter((answer) => answer.status === 201);
    expect(answers.filter((answer) => ![201, 0].includes(answer.status)), 'answers other than 201 or a cut connection').to.deep.equal([]);

    const second = await spawnService(shared);
    try {
      const lost = [];
      for (const { email } of acknowledged) if ((await signIn(second.url, email)).status !== 201) lost.push(email);
      expect(lost, `of ${acknowledged.length} acknowledged sign-ups`).to.deep.equal([]);
    } finally {
      await killHard(second.process);
    }
  });
});

describeWithPostgres('HTTP on PostgreSQL: two instances, each with its own DATA_DIR, on one database', (clusterUrl) => {
  const instances: TestService[] = [];
  before(async function () {
    this.timeout(30_000);
    const url = await createDatabase(clusterUrl(), 'two');
    for (let i = 0; i < 2; i++) instances.push(await startTestService({ STORAGE: 'postgres', DATABASE_URL: url, ...KEYS, RATE_LIMIT_MAX: '100000' }));
  });
  after(async () => {
    for (const instance of instances) await instance.dispose();
  });

  const [a, b] = [() => instances[0] as TestService, () => instances[1] as TestService];

  it('a sign-up on one is a sign-in on the other at once (40 accounts, each read right after its write, no retry)', async () => {
    const refused: string[] = [];
    for (let i = 0; i < 40; i++) {
      const [writer, reader] = i % 2 === 0 ? [a(), b()] : [b(), a()];
      const email = freshEmail('two');
      expect((await signUp(writer.url, email)).status).to.equal(201);
      const status = (await signIn(reader.url, email)).status;
      if (status !== 201) refused.push(`${email}: ${status}`);
    }
    expect(refused).to.deep.equal([]);
  });

  it('a sign-out everywhere on one is a 401 on the other at once, for the token of every session', async () => {
    const accepted: string[] = [];
    for (let i = 0; i < 20; i++) {
      const [writer, reader] = i % 2 === 0 ? [a(), b()] : [b(), a()];
      const email = freshEmail('out');
      const tokens = [(await signUp(writer.url, email)).body.data.accesstoken, (await signIn(reader.url, email)).body.data.accesstoken] as string[];
      for (const token of tokens) expect(await me(reader.url, token)).to.equal(200);
      expect((await postJson(writer.url, '/auth/sign-out', { scope: 'global' }, bearer(tokens[1] as string))).status).to.equal(204);
      for (const token of tokens) {
        const status = await me(reader.url, token);
        if (status !== 401) accepted.push(`${email}: ${status}`);
      }
    }
    expect(accepted).to.deep.equal([]);
  });
});

describe('HTTP on PostgreSQL: faults (a cluster of its own, stopped, restarted and cut off)', function () {
  this.timeout(120_000);
  const DEADLINE_MS = 1_500;
  let cluster: PostgresCluster | undefined;
  let proxy: TcpProxy | undefined;
  let service: TestService | undefined;
  let url = '';

  before(async function () {
    skipWithoutPostgres(this);
    cluster = await startPostgres();
    const direct = new URL(await createDatabase(cluster.url, 'faults'));
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port) });
    direct.host = proxy.address;
    url = direct.href;
    service = await startTestService({ STORAGE: 'postgres', DATABASE_URL: url, DATABASE_TIMEOUT_MS: String(DEADLINE_MS), ...KEYS, RATE_LIMIT_MAX: '100000' });
  });
  after(async () => {
    await service?.dispose();
    await proxy?.close();
    cluster?.stop();
  });

  const running = () => service as TestService;

  /** The readiness probe turns 200 by itself: polled, as a balancer polls it; resolves to how long it took. */
  const readyAgain = async (): Promise<number> => {
    const started = Date.now();
    while ((await ready(running().url)) !== 200) {
      if (Date.now() - started > 15_000) throw new Error('not ready 15 s after the server came back');
      await sleep(100);
    }
    return Date.now() - started;
  };

  it('cut off (a partition: connections open, nothing answers): 503 with Retry-After within DATABASE_TIMEOUT_MS, not ready; serves again, without a restart, once healed', async () => {
    const email = freshEmail('cut');
    expect((await signUp(running().url, email)).status).to.equal(201);
    proxy?.cut();
    try {
      const started = Date.now();
      const [signInAnswer, signUpAnswer, probe] = await Promise.all([signIn(running().url, email), signUp(running().url, freshEmail('cut')), ready(running().url)]);
      const elapsed = Date.now() - started;
      expect([signInAnswer.status, signUpAnswer.status, probe]).to.deep.equal([503, 503, 503]);
      expect(signInAnswer.headers['retry-after']).to.equal('5');
      expect(signInAnswer.body).to.deep.include({ code: 'STORE_UNAVAILABLE', message: 'Service temporarily unavailable' });
      expect(elapsed, 'answered within the deadline (plus the time to answer)').to.be.below(DEADLINE_MS + 1_000);
    } finally {
      proxy?.heal();
    }
    await readyAgain();
    expect((await signIn(running().url, email)).status).to.equal(201);
  });

  it('stopped: 503 with Retry-After at once (connection refused), never a 500; after a restart every sign-up answered 201 during the failover signs in', async () => {
    const load = signUpsUntil(running().url, 6, 'failover');
    while (load.answers.filter((answer) => answer.status === 201).length < 20) await sleep(20);
    cluster?.halt();
    const started = Date.now();
    const whileDown = await signIn(running().url, freshEmail('down'));
    expect(whileDown.status).to.equal(503);
    expect(whileDown.headers['retry-after']).to.equal('5');
    expect(whileDown.body).to.deep.include({ code: 'STORE_UNAVAILABLE' });
    expect(Date.now() - started).to.be.below(DEADLINE_MS + 1_000);
    expect(await ready(running().url)).to.equal(503);
    await sleep(500);
    cluster?.resume();
    await readyAgain();
    await sleep(300);
    const answers = await load.stop();
    expect([...new Set(answers.map((answer) => answer.status))].filter((status) => ![201, 503].includes(status)), 'statuses besides 201 and 503').to.deep.equal([]);
    expect(answers.some((answer) => answer.status === 503), 'some sign-ups met the stopped server').to.equal(true);
    const acknowledged = answers.filter((answer) => answer.status === 201);
    const lost = [];
    for (const { email } of acknowledged) if ((await signIn(running().url, email)).status !== 201) lost.push(email);
    expect(lost, `of ${acknowledged.length} acknowledged sign-ups`).to.deep.equal([]);
  });

  it('unreachable when the service starts: it refuses to start in one line that names DATABASE_URL and not its password', async () => {
    const closed = new URL(url);
    closed.password = 's3cret-pw';
    closed.port = '1';
    const error = await rejection(startTestService({ STORAGE: 'postgres', DATABASE_URL: closed.href, DATABASE_TIMEOUT_MS: '500', ...KEYS }));
    expect(error).to.be.instanceOf(Error).with.property('name', 'PostgresUnreachable');
    expect((error as Error).message).to.include('DATABASE_URL').and.not.include('s3cret-pw');
  });
});

describeWithPostgres('npm run store:migrate: the schema migrated ahead of a rolling deploy', (clusterUrl) => {
  it('migrates a fresh database to this release, then finds it current; instances that start later have nothing to do', async () => {
    const url = await createDatabase(clusterUrl(), 'migrate');
    expect(await migrateStore({ DATABASE_URL: url })).to.equal(`store:migrate: migrated the schema from version 0 to ${MIGRATIONS.length}`);
    expect(await migrateStore({ DATABASE_URL: url })).to.equal(`store:migrate: the schema is at version ${MIGRATIONS.length} already`);
    expect(await sql(url, 'SELECT version FROM store_schema')).to.deep.equal([{ version: MIGRATIONS.length }]);
    const service = await startTestService({ STORAGE: 'postgres', DATABASE_URL: url, ...KEYS });
    try {
      expect((await signUp(service.url, freshEmail('migrated'))).status).to.equal(201);
    } finally {
      await service.dispose();
    }
  });

  it('says the embedded store has nothing to migrate ahead', async () => {
    expect(await migrateStore({})).to.match(/nothing to migrate ahead for STORAGE=lmdb/);
  });

  it('as a command: exit 1 and one line naming the cause, not the password, when the server does not answer', async function () {
    this.timeout(60_000);
    const result = spawnSync(process.execPath, [join('node_modules', 'tsx', 'dist', 'cli.mjs'), join('tools', 'migrate-store.ts')], {
      env: { ...process.env, DATABASE_URL: 'postgres://svc:s3cret-pw@127.0.0.1:1/accounts', DATABASE_TIMEOUT_MS: '500' },
      encoding: 'utf8',
    });
    expect(result.status).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.match(/^store:migrate: Cannot prepare the PostgreSQL store .*Check DATABASE_URL\./).and.not.include('s3cret-pw');
  });
});
