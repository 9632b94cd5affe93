import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { readCompose } from '../support/compose-file.js';
import { http, postJson } from '../support/http-client.js';
import { type RunningNginx, nginxConfIn, nginxRejects, nginxUnavailable, startNginx } from '../support/nginx.js';
import { type PostgresCluster, postgresUnavailable, startPostgres } from '../support/postgres.js';
import { sampleValue } from '../support/prometheus-text.js';
import { redisUnavailable, startRedis } from '../support/redis-server.js';
import { type TestService, startTestService, tempDir } from '../support/test-service.js';
import { aTestKey } from '../support/tokens.js';

const SCALE_OUT = 'docs/scale-out/compose.yaml';
const PASSWORD = 'analytical engine 1843';

/** The sign-in answers of these statuses an instance counted (its own /metrics, read directly: nginx does not serve them). */
const signInsServed = async (service: TestService, statuses: readonly string[] = ['400', '429']): Promise<number> => {
  const text = (await http(service.url, '/metrics', { method: 'GET' })).text;
  return statuses.reduce((sum, status) => sum + (sampleValue(text, 'http_request_duration_seconds_count', { route: '/auth/sign-in', method: 'POST', status }) ?? 0), 0);
};

/**
 * The file's DATABASE_URL made to run here: its role (with its password) and its database made on the run's own
 * throw-away cluster, fresh, as the `postgres` image makes them on its first start; only the host and port change.
 */
async function databaseLike(composeUrl: string, cluster: PostgresCluster): Promise<string> {
  const url = new URL(composeUrl);
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    const role = admin.escapeIdentifier(decodeURIComponent(url.username));
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD ${admin.escapeLiteral(decodeURIComponent(url.password))}`);
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(decodeURIComponent(url.pathname.slice(1)))} OWNER ${role}`);
  } finally {
    await admin.end();
  }
  url.host = new URL(cluster.url).host;
  return url.href;
}

// docs/scale-out/compose.yaml without Docker: its nginx.conf run by a real nginx in front of two instances with the
// file's own proxy, limit and store settings, on one real Redis and one real PostgreSQL (a throw-away cluster with the
// file's role and database). As in the containers, each instance has a DATA_DIR of its own and the same keys (the
// file shares them through its `keys` volume, here through JWT_PRIVATE_KEY and PERSONAL_DATA_KEY): what they share
// is the database alone.
describe('HTTP: the scale-out setup run for real (docs/scale-out: nginx, two instances, Redis, PostgreSQL)', function () {
  this.timeout(60_000);
  const dir = tempDir('scale-out');
  const services: TestService[] = [];
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  let postgres: PostgresCluster | undefined;
  let nginx: RunningNginx | undefined;
  let conf = { file: '', port: 0 };
  const flushLimits = () => spawnSync('redis-cli', ['-p', String(redis?.port), 'FLUSHALL'], { encoding: 'utf8' });

  before(async function () {
    this.timeout(120_000);
    const missing = nginxUnavailable() ?? redisUnavailable() ?? postgresUnavailable();
    if (missing) {
      (this.test as unknown as { parent: { skipReason: string } }).parent.skipReason = missing;
      this.skip();
    }
    const compose = readCompose(SCALE_OUT);
    const instances = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
    redis = await startRedis();
    postgres = await startPostgres();
    const keys = { JWT_PRIVATE_KEY: aTestKey().privatePem, PERSONAL_DATA_KEY: randomBytes(32).toString('base64') };
    const DATABASE_URL = await databaseLike(instances[0]?.[1].environment?.['DATABASE_URL'] ?? '', postgres);
    for (const [name, service] of instances) {
      const { TRUST_PROXY = '', RATE_LIMIT_STORE = '' } = service.environment ?? {};
      services.push(
        await startTestService({ DATA_DIR: join(dir, name), ...keys, DATABASE_URL, TRUST_PROXY, RATE_LIMIT_STORE, REDIS_URL: redis.url, RATE_LIMIT_MAX: '10', RATE_LIMIT_WINDOW: '1 minute' }),
      );
    }
    const upstreams = Object.fromEntries(instances.map(([name], i) => [name, new URL(services[i]?.url ?? '').host]));
    conf = await nginxConfIn(dir, readFileSync(join(compose.dir, 'nginx.conf'), 'utf8'), upstreams);
  });
  after(async () => {
    await nginx?.stop();
    for (const service of services) await service.close();
    await redis?.stop();
    postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('nginx accepts the file (nginx -t) and starts on it', async () => {
    expect(nginxRejects(conf.file, dir)).to.equal(null);
    nginx = await startNginx(conf.file, dir, conf.port);
    expect((await http(nginx.url, '/health/ready', { method: 'GET' })).status).to.equal(200);
  });

  it('spreads requests over both instances, which keep one limit: of 30 simultaneous ones, each with a forged X-Forwarded-For, exactly 10 pass', async () => {
    flushLimits();
    const before = await Promise.all(services.map((service) => signInsServed(service)));
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => postJson(nginx?.url ?? '', '/auth/sign-in', {}, { 'x-forwarded-for': `203.0.113.${i + 1}` })),
    );
    expect(answers.filter((answer) => answer.status === 400), 'the limit counts the client nginx saw, not the address it claims').to.have.length(10);
    expect(answers.filter((answer) => answer.status === 429)).to.have.length(20);
    const served = (await Promise.all(services.map((service) => signInsServed(service)))).map((count, i) => count - (before[i] ?? 0));
    expect(served.every((count) => count > 0), `answers per instance: ${served.join(', ')}`).to.equal(true);
    expect(served.reduce((sum, count) => sum + count, 0)).to.equal(30);
  });

  it('keeps one store: an account made through one instance signs in through both, and a token either issued opens it on both', async () => {
    flushLimits();
    const email = `shared-${Date.now()}@example.com`;
    expect((await postJson(nginx?.url ?? '', '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email, password: PASSWORD })).status).to.equal(201);
    const before = await Promise.all(services.map((service) => signInsServed(service, ['201'])));
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await postJson(nginx?.url ?? '', '/auth/sign-in', { email, password: PASSWORD }));
    expect(answers.map((answer) => answer.status)).to.deep.equal([201, 201, 201, 201]);
    const served = (await Promise.all(services.map((service) => signInsServed(service, ['201'])))).map((count, i) => count - (before[i] ?? 0));
    expect(served.every((count) => count > 0), `sign-ins per instance: ${served.join(', ')}`).to.equal(true);
    const token = String(answers[0]?.body?.data?.accesstoken);
    for (const service of services) {
      const me = await http(service.url, '/auth/me', { method: 'GET', headers: { authorization: `Bearer ${token}` } });
      expect([me.status, me.body?.data?.user?.email], service.url).to.deep.equal([200, email]);
    }
  });

  it('lets a body larger than nginx buffers in memory reach the service, which answers 413 in its envelope', async () => {
    flushLimits();
    const answer = await postJson(nginx?.url ?? '', '/auth/sign-in', { email: 'ada@example.com', password: 'x'.repeat(200_000) });
    expect([answer.status, answer.body?.message]).to.deep.equal([413, 'Request body is too large']);
  });

  it('keeps /metrics off the edge: 404 through nginx, 200 from an instance', async () => {
    expect((await http(nginx?.url ?? '', '/metrics', { method: 'GET' })).status).to.equal(404);
    expect((await http(services[0]?.url ?? '', '/metrics', { method: 'GET' })).status).to.equal(200);
  });

  it('with one instance stopped, every request goes to the other, sign-ups included, each account made once', async () => {
    flushLimits();
    await services.pop()?.close();
    const emails = Array.from({ length: 4 }, (_, i) => `failover-${i}-${Date.now()}@example.com`);
    for (const email of emails) {
      const answer = await postJson(nginx?.url ?? '', '/auth/sign-up', { name: 'Ada', lastname: 'Lovelace', email, password: PASSWORD });
      expect(answer.status, email).to.equal(201);
    }
    for (const email of emails) expect((await postJson(nginx?.url ?? '', '/auth/sign-in', { email, password: PASSWORD })).status, email).to.equal(201);
    expect((await http(nginx?.url ?? '', '/health/ready', { method: 'GET' })).status).to.equal(200);
  });
});
