import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { expect } from 'chai';
import { type Config, loadConfig } from '../../../src/infrastructure/config/config.js';
import { personalDataSecret } from '../../../src/infrastructure/security/personal-data-keys.js';
import { loadSigningKey } from '../../../src/infrastructure/security/signing-key.js';
import { type ComposeFile, type ComposeService, type NginxDirective, commandOf, imageEnvironment, mountOf, nginxFind, parseNginx, readCompose } from '../../support/compose-file.js';
import { tempDir } from '../../support/test-service.js';

// No Docker here: these files are checked as `docker compose config` would check them (every name they use is
// defined), then against the service itself: each instance's environment is loaded by the service's own
// configuration in production, with the keys the files' own job makes.
const SCALE_OUT = 'docs/scale-out/compose.yaml';
/** Each file and the store its instances use: the single-instance file MongoDB, the scale-out file PostgreSQL. */
const FILES = { 'docker-compose.yml': 'mongodb', [SCALE_OUT]: 'postgres' } as const;
const IMAGE = imageEnvironment('Dockerfile');

const instancesOf = (compose: ComposeFile): [string, ComposeService][] => Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
const hostOf = (url: string): string => new URL(url).hostname;

/** Runs the `keys` job's script with its volume in `dir`, recording the owner it gives each file (no root needed). */
function runKeysJob(compose: ComposeFile, dir: string): { file: string; uid: number; gid: number }[] {
  const job = compose.services['keys'];
  const [node, flag, script] = commandOf(job ?? {});
  expect([node, flag]).to.deep.equal(['node', '-e']);
  const target = mountOf(job?.volumes?.[0] ?? '').target;
  const chowns = join(dir, '.chowns');
  const preload = join(dir, '.preload.cjs');
  writeFileSync(preload, `require('node:fs').chownSync = (file, uid, gid) => require('node:fs').appendFileSync(${JSON.stringify(chowns)}, JSON.stringify({ file, uid, gid }) + '\\n');`);
  execFileSync(process.execPath, ['-r', preload, '-e', (script ?? '').replaceAll(`'${target}/`, `'${dir}/`)], { stdio: 'pipe' });
  return existsSync(chowns) ? readFileSync(chowns, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { file: string; uid: number; gid: number }) : [];
}

describe('The Compose files (docker-compose.yml, docs/scale-out/compose.yaml)', () => {
  for (const [path, store] of Object.entries(FILES)) {
    it(`${path}: every service, volume, file and build it names exists, and every wait is on something that ends or is checked`, () => {
      const compose = readCompose(path);
      for (const [name, service] of Object.entries(compose.services)) {
        expect(service.image ?? service.build, `${name}: an image or a build`).to.not.equal(undefined);
        for (const [other, { condition }] of Object.entries(service.depends_on ?? {})) {
          const dependency = compose.services[other];
          expect(dependency, `${name} depends on ${other}`).to.not.equal(undefined);
          if (condition === 'service_healthy') expect(dependency?.healthcheck, `${name} waits for ${other} to be healthy`).to.not.equal(undefined);
          if (condition === 'service_completed_successfully') expect(dependency?.restart, `${other} is a one-shot job`).to.equal(undefined);
        }
        for (const { source } of (service.volumes ?? []).map(mountOf)) {
          if (source.startsWith('.') || source.startsWith('/')) expect(existsSync(join(compose.dir, source)), `${name} mounts ${source}`).to.equal(true);
          else expect(compose.volumes, `${name} mounts the volume ${source}`).to.have.property(source);
        }
        const context = typeof service.build === 'string' ? service.build : service.build?.context;
        if (context !== undefined) expect(existsSync(join(compose.dir, context, 'Dockerfile')), `${name} builds ${context}`).to.equal(true);
      }
    });

    it(`${path}: each instance starts in production with the keys the file's own job makes, readable only by the image's user`, () => {
      const compose = readCompose(path);
      const dir = tempDir('compose-keys');
      try {
        const chowns = runKeysJob(compose, dir);
        expect(chowns.map(({ file }) => posix.basename(file)).sort()).to.deep.equal(['jwt.pem', 'personal-data.key']);
        expect(chowns.every(({ uid, gid }) => uid === 1000 && gid === 1000)).to.equal(true);
        const made = Object.fromEntries(chowns.map(({ file }) => [posix.basename(file), readFileSync(file, 'utf8')]));
        expect(runKeysJob(compose, dir), 'a second start makes nothing').to.have.length(chowns.length);
        expect(Object.fromEntries(chowns.map(({ file }) => [posix.basename(file), readFileSync(file, 'utf8')])), 'nor changes a key').to.deep.equal(made);
        for (const { file } of chowns) expect(statSync(file).mode & 0o777).to.equal(0o600);

        const instances = instancesOf(compose);
        expect(instances).to.not.have.length(0);
        for (const [name, service] of instances) {
          const keys = (service.volumes ?? []).map(mountOf).find((mount) => mount.source === 'keys');
          expect(keys?.readOnly, `${name} mounts the keys read-only`).to.equal(true);
          const env = { ...IMAGE, ...service.environment };
          const local = (file: string | undefined) => {
            expect(file?.startsWith(`${keys?.target}/`), `${name}: ${file} lies in the keys volume`).to.equal(true);
            return join(dir, posix.relative(keys?.target ?? '', file ?? ''));
          };
          const config = loadConfig(env);
          expect(config.env).to.equal('production');
          expect(config.storage.kind).to.equal(store);
          expect(() => loadSigningKey({ privateKeyPem: undefined, privateKeyFile: local(env['JWT_PRIVATE_KEY_FILE']), dataDir: '/nonexistent', production: true, ephemeral: false })).to.not.throw();
          const secret = personalDataSecret({ configured: undefined, configuredFile: local(env['PERSONAL_DATA_KEY_FILE']), dataDir: '/nonexistent', production: true, ephemeral: false });
          expect(secret.toString()).to.equal(made['personal-data.key']?.trim());
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  describe('scale-out: docs/scale-out/compose.yaml and nginx.conf', () => {
    let compose: ComposeFile;
    let instances: [string, ComposeService][];
    let configs: Config[];
    let conf: NginxDirective[];
    before(() => {
      compose = readCompose(SCALE_OUT);
      instances = instancesOf(compose);
      configs = instances.map(([, service]) => loadConfig({ ...IMAGE, ...service.environment }));
      const mounted = (compose.services['nginx']?.volumes ?? []).map(mountOf).find((mount) => mount.target === '/etc/nginx/nginx.conf');
      conf = parseNginx(readFileSync(join(compose.dir, mounted?.source ?? 'missing'), 'utf8'));
    });

    it('runs two identical instances that publish no port: the balancer is the only way in', () => {
      expect(instances).to.have.length(2);
      expect(instances[1]?.[1]).to.deep.equal(instances[0]?.[1]);
      const publishing = Object.entries(compose.services).filter(([, service]) => (service.ports ?? []).length > 0).map(([name]) => name);
      expect(publishing).to.include('nginx').and.not.include(instances[0]?.[0]).and.not.include(instances[1]?.[0]);
      for (const [name, service] of instances) expect(service.healthcheck?.test.join(' '), name).to.include('/health/ready');
    });

    it('shares the store, the limits and the mail: the file\'s PostgreSQL server and database, its Redis, its SMTP server', () => {
      const postgres = Object.entries(compose.services).filter(([, service]) => service.image?.startsWith('postgres:'));
      expect(postgres).to.have.length(1);
      expect(Object.values(compose.services).filter((service) => service.image?.startsWith('mongo:')), 'no MongoDB left').to.have.length(0);
      const [name = '', server = {}] = postgres[0] ?? [];
      const serverEnv = server.environment ?? {};
      for (const [index, config] of configs.entries()) {
        expect(config.storage.kind).to.equal('postgres');
        const url = new URL(config.storage.postgres.url ?? '');
        expect([url.hostname, url.port || '5432'], 'the server\'s name and port').to.deep.equal([name, '5432']);
        expect(decodeURIComponent(url.pathname.slice(1)), 'the database the server creates').to.equal(serverEnv['POSTGRES_DB']);
        expect(decodeURIComponent(url.username), 'the role it creates').to.equal(serverEnv['POSTGRES_USER']);
        expect(decodeURIComponent(url.password), 'its password').to.equal(serverEnv['POSTGRES_PASSWORD']).and.not.equal('');
        expect(instances[index]?.[1].depends_on?.[name]?.condition, 'the instances wait until it accepts connections').to.equal('service_healthy');
        expect(config.rateLimit.store.kind).to.equal('redis');
        const redis = config.rateLimit.store.kind === 'redis' ? hostOf(config.rateLimit.store.url) : '';
        expect(compose.services[redis]?.image).to.match(/^redis:/);
        expect(config.mail.transport).to.equal('smtp');
        expect(compose.services[hostOf(config.mail.smtpUrl ?? '')], 'the SMTP host is a service').to.not.equal(undefined);
      }
      // Healthy once the real server answers on TCP (pg_isready over the socket would pass during the first start's
      // initdb), for the role and database the instances use.
      const check = server.healthcheck?.test ?? [];
      expect(check.slice(0, 2)).to.deep.equal(['CMD', 'pg_isready']);
      const option = (flag: string) => check[check.indexOf(flag) + 1];
      expect([option('-h'), option('-p'), option('-U'), option('-d')]).to.deep.equal(['127.0.0.1', '5432', serverEnv['POSTGRES_USER'], serverEnv['POSTGRES_DB']]);
      const data = (server.volumes ?? []).map(mountOf).find((mount) => mount.target === '/var/lib/postgresql/data');
      expect(compose.volumes, 'the data directory is a named volume').to.have.property(data?.source ?? 'missing');
    });

    it('writes the database password it is given into both the server and every instance\'s DATABASE_URL', () => {
      const given = readCompose(SCALE_OUT, { POSTGRES_PASSWORD: 'Given4Password' });
      const server = Object.values(given.services).find((service) => service.image?.startsWith('postgres:'));
      expect(server?.environment?.['POSTGRES_PASSWORD']).to.equal('Given4Password');
      for (const [, service] of instancesOf(given)) {
        const config = loadConfig({ ...IMAGE, ...service.environment });
        expect(new URL(config.storage.postgres.url ?? '').password).to.equal('Given4Password');
      }
    });

    it('hashes on the CPUs each instance is given (HASH_CONCURRENCY = its CPU limit)', () => {
      for (const [index, [name, service]] of instances.entries()) {
        expect(configs[index]?.hashing.concurrency, name).to.equal(Number(service.deploy?.resources?.limits?.cpus));
      }
    });

    it('balances over every instance on its port; the instances trust the one hop, which replaces any X-Forwarded-For', () => {
      const upstream = nginxFind(conf, 'upstream')[0];
      const servers = nginxFind(upstream?.block ?? [], 'server').map((server) => server.args[0]);
      expect(servers.sort()).to.deep.equal(instances.map(([name]) => `${name}:${IMAGE['PORT']}`).sort());
      expect(nginxFind(conf, 'proxy_pass').map((directive) => directive.args[0])).to.deep.equal([`http://${upstream?.args[0]}`]);
      const headers = Object.fromEntries(nginxFind(conf, 'proxy_set_header').map((directive) => [directive.args[0]?.toLowerCase(), directive.args[1]]));
      expect(headers['x-forwarded-for']).to.equal('$remote_addr');
      for (const config of configs) expect(config.trustProxy).to.equal(1);
    });

    it('never sends a request twice, keeps /metrics off the edge, and lets every body the service accepts reach it', () => {
      for (const directive of nginxFind(conf, 'proxy_next_upstream')) expect(directive.args).to.not.include('non_idempotent');
      const metrics = nginxFind(conf, 'location').find((location) => location.args.join(' ') === '= /metrics');
      expect(nginxFind(metrics?.block ?? [], 'return')[0]?.args).to.deep.equal(['404']);
      const size = nginxFind(conf, 'client_max_body_size')[0]?.args[0] ?? '0';
      const bytes = Number.parseInt(size, 10) * ({ k: 1024, m: 1024 ** 2 }[size.slice(-1).toLowerCase()] ?? 1);
      for (const config of configs) expect(bytes).to.be.at.least(config.http.bodyLimitBytes);
    });
  });
});
