import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throw-away PostgreSQL cluster for the suites: initdb in a temporary directory, started with pg_ctl on a free
 * local port, stopped and deleted after the run. Where the binaries are missing (Debian's `postgresql` package;
 * .ci/run installs it) the suites are skipped by name with the reason: never an imitation of PostgreSQL.
 */
/** POSTGRES_BIN, else the newest /usr/lib/postgresql/<version>/bin (Debian's layout: 15 on bookworm). */
const installedBin = (): string => {
  const versions = (() => {
    try {
      return readdirSync('/usr/lib/postgresql').filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    } catch {
      return [];
    }
  })();
  return `/usr/lib/postgresql/${versions[0] ?? '15'}/bin`;
};
const BIN = process.env['POSTGRES_BIN'] ?? installedBin();
const INITDB = join(BIN, 'initdb');
const PG_CTL = join(BIN, 'pg_ctl');

/** Why no real PostgreSQL can be had here, or null. */
export const postgresUnavailable = (): string | null => {
  if (!existsSync(INITDB) || !existsSync(PG_CTL)) return `no PostgreSQL binaries in ${BIN} (apt-get install -y postgresql; .ci/run installs it)`;
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root without a postgres user to run the cluster as';
  return null;
};

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Runs a PostgreSQL binary, as the postgres user when this process is root (PostgreSQL refuses to run as root). */
const run = (command: string, args: readonly string[]): void => {
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, [...args]];
  const result = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${command} ${args[0] ?? ''} failed: ${result.stderr || result.stdout || String(result.error)}`);
};

export interface PostgresCluster {
  /** The connection string of its `postgres` database (trust authentication, user postgres). */
  readonly url: string;
  /** The server's process stopped as a crash would (`pg_ctl stop -m immediate`: no checkpoint, backends killed); its data kept. */
  halt(): void;
  /** Starts the halted server again on the same port and data (crash recovery from its WAL), resolving once it accepts connections. */
  resume(): void;
  stop(): void;
}

/**
 * Starts a fresh cluster (a few seconds); `stop` stops it and deletes its directory. It runs with `fsync=off` (the
 * suites need no durability); `durable: true` keeps PostgreSQL's default, every commit flushed before it resolves
 * (the benchmark, so that its commits cost what the service's commits cost in production).
 */
export async function startPostgres(options: { readonly durable?: boolean } = {}): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'pg-cluster-'));
  chmodSync(dir, 0o700);
  if (process.getuid?.() === 0) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const halt = () => {
    const args = ['-D', dir, '-m', 'immediate', 'stop'];
    if (process.getuid?.() === 0) spawnSync('runuser', ['-u', 'postgres', '--', PG_CTL, ...args], { timeout: 30_000 });
    else spawnSync(PG_CTL, args, { timeout: 30_000 });
  };
  // fsync=off unless durable: a test cluster's durability against the operating system's crash is not under test; a
  // crash of the server itself (halt) keeps what it wrote to its WAL, as the page cache keeps it.
  const resume = () =>
    run(PG_CTL, ['-D', dir, '-l', join(dir, 'server.log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${options.durable ? '' : ' -c fsync=off'}`, '-w', 'start']);
  const stop = () => {
    halt();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(INITDB, ['-D', dir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    resume();
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, halt, resume, stop };
}

let databases = 0;

/** A new empty database on the cluster of `url` (its `postgres` database); resolves to its connection string. */
export async function createDatabase(url: string, label: string): Promise<string> {
  const name = `${label.replace(/[^a-z0-9_]/g, '_')}_${process.pid}_${++databases}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return url.replace(/\/postgres$/, `/${name}`);
}

/** Runs one statement on the database of `url` with a connection of its own. */
export async function sql<R extends pg.QueryResultRow = pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Skips the current suite by name, with the reason, where no real PostgreSQL can be had (a `before` hook's `this`). */
export function skipWithoutPostgres(context: Mocha.Context): void {
  const missing = postgresUnavailable();
  if (!missing) return;
  const suite = context.test?.parent as (Mocha.Suite & { skipReason?: string }) | undefined;
  if (suite) suite.skipReason = missing;
  context.skip();
}

let cluster: Promise<PostgresCluster> | undefined;

/** The cluster of this test process, started on first use and stopped when mocha's run ends. */
export const sharedPostgres = (): Promise<PostgresCluster> => (cluster ??= startPostgres());

/** A suite over the shared cluster, or skipped by name with the reason where PostgreSQL is not installed. */
export function describeWithPostgres(title: string, body: (url: () => string) => void): void {
  describe(title, function () {
    let url: string | undefined;
    before(async function () {
      this.timeout(120_000);
      const missing = postgresUnavailable();
      if (missing) {
        const suite = this.test?.parent as (Mocha.Suite & { skipReason?: string }) | undefined;
        if (suite) suite.skipReason = missing;
        this.skip();
      }
      url = (await sharedPostgres()).url;
    });
    after(async () => {
      if (!cluster) return;
      const started = cluster;
      cluster = undefined;
      (await started).stop();
    });
    body(() => {
      if (!url) throw new Error('the PostgreSQL cluster was used before it started');
      return url;
    });
  });
}

/** A PostgreSQL client program (pg_dump, pg_restore, createdb, psql) of the binaries the cluster runs on. */
export const postgresProgram = (name: string): string => join(BIN, name);
