import { execFile } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import pg from 'pg';
import { copyStore } from '../../tools/copy-store.js';
import { LmdbStore } from '../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbTables } from '../../src/infrastructure/lmdb/lmdb-tables.js';
import { COUNTERS } from '../../src/infrastructure/storage/commit-plan.js';
import { COPY_BATCH } from '../../src/infrastructure/storage/store-copy.js';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { describeWithPostgres } from '../support/postgres.js';
import { type TestService, startTestService, tempDir } from '../support/test-service.js';
import { aTestKey } from '../support/tokens.js';
import { mailedToken } from '../support/verify-by-mail.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PASSWORD = 'analytical engine 1843';
const NEW_PASSWORD = 'difference engine 1822';
/** Trust authentication accepts any password: one is given so that the test sees it is never printed. */
const SECRET = 'hunter2-never-printed';

const failureOf = (promise: Promise<unknown>): Promise<Error> => promise.then(() => new Error('the copy ran'), (error: Error) => error);

describeWithPostgres('store:copy moves a store between LMDB and PostgreSQL, every account, session and pending mail (issue 66)', (url) => {
  const key = aTestKey();
  /** The same keys on every side: the copy moves values as sealed, so the target service must hold the same keys. */
  const secrets = { JWT_PRIVATE_KEY: key.privatePem, PERSONAL_DATA_KEY: 'a personal data key for the store copy test, 32+', RATE_LIMIT_MAX: '10000', MAIL_POLL_INTERVAL_MS: '60000' };
  const dirs: string[] = [];
  const services: TestService[] = [];
  let databases = 0;

  const dir = (label: string) => {
    const made = tempDir(label);
    dirs.push(made);
    return made;
  };
  const onLmdb = async (dataDir: string) => {
    const service = await startTestService({ ...secrets, STORAGE: 'lmdb', DATA_DIR: dataDir });
    services.push(service);
    return service;
  };
  const onPostgres = async (databaseUrl: string) => {
    const service = await startTestService({ ...secrets, STORAGE: 'postgres', DATABASE_URL: databaseUrl, DATA_DIR: dir('copy-pg-mail') });
    services.push(service);
    return service;
  };
  const stop = async (service: TestService) => {
    services.splice(services.indexOf(service), 1);
    await service.close();
  };

  /** Runs statements on a database of the cluster (`postgres` by default), returning the last one's rows. */
  const sql = async (statements: string[], database = 'postgres'): Promise<Record<string, unknown>[]> => {
    const client = new pg.Client({ connectionString: url().replace(/\/postgres$/, `/${database}`) });
    await client.connect();
    try {
      let rows: Record<string, unknown>[] = [];
      for (const statement of statements) rows = (await client.query(statement)).rows as Record<string, unknown>[];
      return rows;
    } finally {
      await client.end();
    }
  };
  /** A fresh database; its URL carries a password (which trust authentication ignores). */
  const freshDatabase = async () => {
    const name = `copy_${process.pid}_${++databases}`;
    await sql([`CREATE DATABASE ${name}`]);
    return { name, url: url().replace('postgres@', `postgres:${SECRET}@`).replace(/\/postgres$/, `/${name}`) };
  };
  /** How many records a database holds (0 before any store created its schema). */
  const rowsIn = async (database: string): Promise<number> => {
    const [schema] = await sql(["SELECT to_regclass('store_rows') IS NOT NULL AS made"], database);
    return schema?.['made'] ? Number((await sql(['SELECT count(*) AS n FROM store_rows'], database))[0]?.['n']) : 0;
  };

  afterEach(async function () {
    this.timeout(60_000);
    for (const service of services.splice(0)) await service.close();
    for (const made of dirs.splice(0)) rmSync(made, { recursive: true, force: true });
  });

  it('LMDB → PostgreSQL → LMDB: the account signs in, its session goes on, its address stays taken and its pending mails arrive', async function () {
    this.timeout(120_000);
    const email = 'ada@copy.example';
    const first = await onLmdb(dir('copy-lmdb'));
    const signedUp = await postJson(first.url, '/auth/sign-up', aSignUpBody({ email }));
    expect(signedUp.status, signedUp.text).to.equal(201);
    const signedIn = await postJson(first.url, '/auth/sign-in', { email, password: PASSWORD });
    expect(signedIn.status, signedIn.text).to.equal(201);
    const session = signedIn.body.data as { accesstoken: string; refreshtoken: string };
    await stop(first);
    expect(readdirSync(first.dataDir), 'the verification mail is still pending in the outbox').to.not.include('mail');

    const database = await freshDatabase();
    const there = await copyStore(`lmdb:${first.dataDir}`, database.url);
    expect(there.line).to.match(new RegExp(`^copied ${there.records} records \\(${there.indexEntries} index entries\\) of \\d+ tables from lmdb:${first.dataDir} to postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:\\d+/${database.name}$`));
    expect(there.line).to.not.include(SECRET);
    expect(there.tables['users']?.records).to.equal(1);
    expect(there.tables['sessions']?.records, 'the sign-up\'s session and the sign-in\'s').to.equal(2);
    expect(there.tables['outbox']?.records, 'the pending verification mail').to.equal(1);
    expect(await rowsIn(database.name)).to.equal(there.records);
    const entries = await sql(['SELECT count(*)::integer AS n FROM store_entries'], database.name);
    expect(entries[0]?.['n']).to.equal(there.indexEntries);

    const onPg = await onPostgres(database.url);
    expect((await postJson(onPg.url, '/auth/sign-in', { email, password: PASSWORD })).status, 'the password').to.equal(201);
    const me = await http(onPg.url, '/auth/me', { method: 'GET', headers: { authorization: `Bearer ${session.accesstoken}` } });
    expect(me.status, me.text).to.equal(200);
    expect(me.body.data.user.email).to.equal(email);
    const refreshed = await postJson(onPg.url, '/auth/refresh', { refreshtoken: session.refreshtoken });
    expect(refreshed.status, `the session goes on: ${refreshed.text}`).to.equal(200);
    expect((await postJson(onPg.url, '/auth/sign-up', aSignUpBody({ email }))).status, 'the address stays taken').to.equal(409);
    const verified = await postJson(onPg.url, '/auth/verify-email', { token: await mailedToken(onPg, email, 'Confirm your e-mail address') });
    expect(verified.status, `the pending mail arrives and its link works: ${verified.text}`).to.equal(200);
    expect((await postJson(onPg.url, '/auth/password-reset', { email })).status).to.equal(202);
    const later = refreshed.body.data as { accesstoken: string; refreshtoken: string };
    await stop(onPg);

    const back = dir('copy-back');
    const returned = await copyStore(`postgres:${database.url}`, `lmdb:${back}`);
    expect(returned.line).to.match(new RegExp(`^copied ${returned.records} records .* from postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:\\d+/${database.name} to lmdb:${back}$`));
    expect(returned.records).to.equal(await rowsIn(database.name));
    expect(returned.tables['outbox']?.records, 'the delivered mail and the pending reset').to.be.at.least(1);
    expect(readdirSync(back).filter((name) => name.includes('copying')), 'nothing left beside the store').to.deep.equal([]);

    const again = await onLmdb(back);
    expect((await postJson(again.url, '/auth/sign-in', { email, password: PASSWORD })).status, 'the password').to.equal(201);
    const meAgain = await http(again.url, '/auth/me', { method: 'GET', headers: { authorization: `Bearer ${later.accesstoken}` } });
    expect(meAgain.status, meAgain.text).to.equal(200);
    expect(meAgain.body.data.user.emailverified, 'verified on PostgreSQL, still verified').to.equal(true);
    expect((await postJson(again.url, '/auth/refresh', { refreshtoken: later.refreshtoken })).status, 'the session goes on').to.equal(200);
    expect((await postJson(again.url, '/auth/sign-up', aSignUpBody({ email }))).status, 'the address stays taken').to.equal(409);
    const reset = await postJson(again.url, '/auth/password-reset/confirm', { token: await mailedToken(again, email, 'Reset your password'), newpassword: NEW_PASSWORD });
    expect(reset.status, `the reset mail left pending on PostgreSQL arrives and works: ${reset.text}`).to.equal(200);
    expect((await postJson(again.url, '/auth/sign-in', { email, password: NEW_PASSWORD })).status).to.equal(201);
  });

  it('copies many batches both ways with every key, version, value and index entry as stored', async function () {
    this.timeout(90_000);
    const source = dir('copy-many');
    const written = Array.from({ length: 3 * COPY_BATCH + 7 }, (_, n) => ({ key: `counter-${String(n).padStart(5, '0')}`, version: n % 7, value: { times: [n, n + 1], expiresAt: 4_000_000_000_000 + n } }));
    const store = LmdbStore.open(source);
    const tables = new LmdbTables(store);
    tables.prepare([COUNTERS]);
    await store.transaction(() => written.forEach((row) => tables.importInTransaction(COUNTERS, row.key, row.value, row.version)));
    await store.close();

    const database = await freshDatabase();
    const there = await copyStore(`lmdb:${source}`, database.url);
    expect(there.tables).to.deep.equal({ counters: { records: written.length, indexEntries: written.length } });
    const entries = await sql(["SELECT count(*)::integer AS n FROM store_entries WHERE tbl = 'counters' AND idx = 'expires'"], database.name);
    expect(entries[0]?.['n'], 'each record\'s expiry entry').to.equal(written.length);

    const back = dir('copy-many-back');
    expect((await copyStore(database.url, `lmdb:${back}`)).records).to.equal(written.length);
    const returned = LmdbStore.open(back);
    try {
      const copied = new LmdbTables(returned);
      copied.prepare([COUNTERS]);
      expect([...copied.recordsOf(COUNTERS)]).to.deep.equal(written);
      expect(await copied.count(COUNTERS, 'expires', []), 'the expiry index rebuilt').to.equal(written.length);
    } finally {
      await returned.close();
    }
  });

  it('refuses a target that holds any record, naming the count, and writes nothing into it', async function () {
    this.timeout(90_000);
    const source = dir('copy-source');
    const service = await onLmdb(source);
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'grace@copy.example' }))).status).to.equal(201);
    await stop(service);

    const database = await freshDatabase();
    const other = await onPostgres(database.url);
    expect((await postJson(other.url, '/auth/sign-up', aSignUpBody({ email: 'already@copy.example' }))).status).to.equal(201);
    await stop(other);
    const held = await rowsIn(database.name);
    const refused = await failureOf(copyStore(`lmdb:${source}`, database.url));
    expect(refused.message).to.equal(`postgres://postgres:***@${new URL(database.url).host}/${database.name} already holds ${held} records: copy into an empty store (nothing is merged)`);
    expect(await rowsIn(database.name), 'nothing written').to.equal(held);

    const occupied = dir('copy-occupied');
    const lmdbTarget = await onLmdb(occupied);
    expect((await postJson(lmdbTarget.url, '/auth/sign-up', aSignUpBody({ email: 'there@copy.example' }))).status).to.equal(201);
    await stop(lmdbTarget);
    const before = statSync(join(occupied, 'accounts.lmdb'));
    const intoLmdb = await failureOf(copyStore(`lmdb:${source}`, `lmdb:${occupied}`));
    expect(intoLmdb.message).to.match(new RegExp(`^lmdb:${occupied} already holds \\d+ records: copy into an empty store`));
    expect(statSync(join(occupied, 'accounts.lmdb')).ino, 'the same store file').to.equal(before.ino);
    expect(existsSync(join(occupied, 'accounts.lmdb.copying')), 'no copy left beside it').to.equal(false);
    const still = await onLmdb(occupied);
    expect((await postJson(still.url, '/auth/sign-in', { email: 'grace@copy.example', password: PASSWORD })).status, 'nothing merged').to.equal(401);
    expect((await postJson(still.url, '/auth/sign-in', { email: 'there@copy.example', password: PASSWORD })).status).to.equal(201);
  });

  it('refuses while a service has an LMDB store open, as the source or as the target', async function () {
    this.timeout(90_000);
    const running = await onLmdb(dir('copy-open'));
    expect((await postJson(running.url, '/auth/sign-up', aSignUpBody({ email: 'open@copy.example' }))).status).to.equal(201);
    const database = await freshDatabase();
    const from = await failureOf(copyStore(`lmdb:${running.dataDir}`, database.url));
    expect(from.message).to.equal(`lmdb:${running.dataDir}: the store is open in process ${process.pid}: stop the service first`);
    expect(await rowsIn(database.name), 'nothing written').to.equal(0);

    const to = await failureOf(copyStore(database.url, `lmdb:${running.dataDir}`));
    expect(to.message).to.equal(`lmdb:${running.dataDir}: the store is open in process ${process.pid}: stop the service first`);
    expect((await postJson(running.url, '/auth/sign-in', { email: 'open@copy.example', password: PASSWORD })).status, 'the service serves on').to.equal(201);
  });

  it('as a command: prints one line without the password; exits 1 with one line when refused', async function () {
    this.timeout(90_000);
    const source = dir('copy-command');
    const service = await onLmdb(source);
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'cli@copy.example' }))).status).to.equal(201);
    await stop(service);
    const database = await freshDatabase();
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'tools/copy-store.ts'), ...args], { cwd: ROOT }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      );

    const copied = await run(['--from', `lmdb:${source}`, '--to', database.url]);
    expect(copied.code, copied.stderr).to.equal(0);
    expect(copied.stdout).to.match(/^copied \d+ records \(\d+ index entries\) of \d+ tables from lmdb:.* to postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/copy_\w+\n$/);
    const again = await run(['--from', `lmdb:${source}`, '--to', database.url]);
    expect(again.code).to.equal(1);
    expect(again.stdout).to.equal('');
    expect(again.stderr).to.match(/^store:copy: postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/copy_\w+ already holds \d+ records: copy into an empty store \(nothing is merged\)\n$/);
    expect(copied.stdout + again.stderr).to.not.include(SECRET);
  });
});
