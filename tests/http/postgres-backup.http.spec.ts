import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { postJson } from '../support/http-client.js';
import { type PostgresCluster, postgresProgram, postgresUnavailable, startPostgres } from '../support/postgres.js';
import { type TestService, startTestService, tempDir } from '../support/test-service.js';
import { aTestKey } from '../support/tokens.js';

const PASSWORD = 'analytical engine 1843';
const ROLE_PASSWORD = 'Backup4Test';

/** The shell block of docs/operations.md's "Backups": the commands an operator runs, as written. */
const backupCommands = (): string => {
  const text = readFileSync('docs/operations.md', 'utf8');
  const section = text.slice(text.indexOf('### Backups'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('docs/operations.md, "Backups": no ```sh block');
  return block.replace(/^ {2}/gm, '');
};

// docs/operations.md, "Backups": its pg_dump, createdb and pg_restore commands run as written against a real
// throw-away cluster (only the host, port and password are this run's), and the service opens the restored database
// with the same PERSONAL_DATA_KEY, and refuses it with another.
describe('HTTP: a PostgreSQL backup restored as docs/operations.md says (pg_dump -Fc, pg_restore)', function () {
  this.timeout(120_000);
  const dir = tempDir('pg-backup');
  let cluster: PostgresCluster | undefined;
  const services: TestService[] = [];
  const keys = { JWT_PRIVATE_KEY: aTestKey().privatePem, PERSONAL_DATA_KEY: randomBytes(32).toString('base64') };
  let url = (_database: string) => '';

  before(async function () {
    const missing = postgresUnavailable();
    if (missing) {
      (this.test as unknown as { parent: { skipReason: string } }).parent.skipReason = missing;
      this.skip();
    }
    cluster = await startPostgres();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE accounts LOGIN PASSWORD '${ROLE_PASSWORD}'`);
      await admin.query('CREATE DATABASE accounts OWNER accounts');
    } finally {
      await admin.end();
    }
    const host = new URL(cluster.url).host;
    url = (database) => `postgres://accounts:${ROLE_PASSWORD}@${host}/${database}`;
  });
  after(async () => {
    for (const service of services) await service.close();
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores every account into a new database, which the service opens with the same key and refuses with another', async () => {
    const first = await startTestService({ DATA_DIR: join(dir, 'first'), DATABASE_URL: url('accounts'), ...keys });
    services.push(first);
    const email = `backup-${Date.now()}@example.com`;
    expect((await postJson(first.url, '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email, password: PASSWORD })).status).to.equal(201);

    const { hostname, port } = new URL(cluster?.url ?? '');
    const script = backupCommands()
      .replaceAll('db.internal:5432', `${hostname}:${port}`)
      .replaceAll('-h db.internal', `-h ${hostname} -p ${port}`)
      .replaceAll('PASSWORD', ROLE_PASSWORD);
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, PATH: `${dirname(postgresProgram('pg_dump'))}:${process.env['PATH'] ?? ''}`, DATABASE_URL: url('accounts') },
    });
    expect(run.status, `${script}\n${run.stdout}${run.stderr}`).to.equal(0);

    const restored = await startTestService({ DATA_DIR: join(dir, 'restored'), DATABASE_URL: url('accounts_restored'), ...keys });
    services.push(restored);
    const signIn = await postJson(restored.url, '/auth/sign-in', { email, password: PASSWORD });
    expect([signIn.status, signIn.body?.data?.user?.email]).to.deep.equal([201, email]);

    const another = { ...keys, PERSONAL_DATA_KEY: randomBytes(32).toString('base64') };
    const refused = await startTestService({ DATA_DIR: join(dir, 'another'), DATABASE_URL: url('accounts_restored'), ...another }).then(
      (service) => {
        services.push(service);
        return null;
      },
      (error: unknown) => error,
    );
    expect(String(refused)).to.include('PERSONAL_DATA_KEY is not the key');
  });
});
