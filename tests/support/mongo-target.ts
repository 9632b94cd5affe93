import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';

/**
 * Where the MongoDB suites run: the replica set named by MONGODB_URI when it is set, else a throw-away
 * single-node replica set started with testcontainers when a Docker engine answers, else nowhere
 * (the suites are skipped by name, with the reason). Never an imitation of MongoDB.
 */
export interface MongoTarget {
  readonly uri: string;
  readonly source: string;
  /**
   * Freezes the server's processes (docker pause: sockets stay open, nothing answers, like a partition) and
   * returns the function that thaws them. Only for the testcontainers target; absent for MONGODB_URI.
   */
  readonly pause?: () => Promise<() => Promise<void>>;
}

type Resolution = { readonly target: MongoTarget } | { readonly skipReason: string };

const MONGO_IMAGE = 'mongo:7';
const DOCKER_PROBE_TIMEOUT_MS = 10_000;

let resolution: Promise<Resolution> | undefined;
let container: { stop(): Promise<unknown> } | undefined;

const dockerCandidates = (): string[] => [
  '/var/run/docker.sock',
  join(homedir(), '.docker', 'run', 'docker.sock'),
  join(homedir(), '.docker', 'desktop', 'docker.sock'),
  join(homedir(), '.colima', 'default', 'docker.sock'),
  join(homedir(), '.testcontainers.properties'),
  ...(process.env['XDG_RUNTIME_DIR'] ? [join(process.env['XDG_RUNTIME_DIR'], 'docker.sock')] : []),
];

/** A cheap look for any sign of a Docker engine, so that testcontainers is only asked when one may exist. */
const dockerMayExist = (): boolean => Boolean(process.env['DOCKER_HOST']) || dockerCandidates().some((path) => existsSync(path));

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms).unref())]);

/** Fails fast (one failed hook, not one timeout per test) when the configured server does not answer. */
async function reachable(target: MongoTarget): Promise<MongoTarget> {
  const client = new MongoClient(target.uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    await client.db('admin').command({ ping: 1 });
    return target;
  } catch (error) {
    throw new Error(`MongoDB from ${target.source} does not answer: ${errorText(error)}`);
  } finally {
    await client.close();
  }
}

async function resolve(): Promise<Resolution> {
  const uri = process.env['MONGODB_URI']?.trim();
  if (uri) return { target: await reachable({ uri, source: 'MONGODB_URI' }) };
  const noMongo = 'no MongoDB: MONGODB_URI is not set and';
  if (!dockerMayExist()) return { skipReason: `${noMongo} no Docker engine was found for testcontainers (no DOCKER_HOST, no docker socket)` };
  let testcontainers: typeof import('testcontainers');
  try {
    testcontainers = await import('testcontainers');
  } catch (error) {
    return { skipReason: `${noMongo} testcontainers cannot load on Node ${process.version} (${errorText(error)})` };
  }
  try {
    await withTimeout(testcontainers.getContainerRuntimeClient(), DOCKER_PROBE_TIMEOUT_MS, 'the Docker engine');
  } catch (error) {
    return { skipReason: `${noMongo} the Docker engine is not usable (${errorText(error)})` };
  }
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const started = await new MongoDBContainer(MONGO_IMAGE).start();
  container = started;
  const docker = (await testcontainers.getContainerRuntimeClient()).container.getById(started.getId());
  const pause = async () => {
    await docker.pause();
    return async () => void (await docker.unpause());
  };
  const containerUri = `${started.getConnectionString()}/?directConnection=true`;
  return { target: { ...(await reachable({ uri: containerUri, source: `testcontainers ${MONGO_IMAGE}` })), pause } };
}

/** Resolves the MongoDB target once per test run. */
export const mongoTarget = (): Promise<Resolution> => (resolution ??= resolve());

/** A database name of its own for one suite in one run (drop it when done). */
export const uniqueDbName = (label: string): string => `t_${label}_${process.pid}_${randomBytes(4).toString('hex')}`.slice(0, 63);

/**
 * A describe() whose tests run against MongoDB, or are all skipped by name with the reason.
 * `body` gets a function returning the target; call it only inside hooks and tests.
 */
export function describeWithMongo(title: string, body: (target: () => MongoTarget) => void): void {
  describe(title, function () {
    let target: MongoTarget | undefined;
    before(async function () {
      this.timeout(180_000);
      const resolved = await mongoTarget();
      if ('skipReason' in resolved) {
        const suite = this.test?.parent as (Mocha.Suite & { skipReason?: string }) | undefined;
        if (suite) suite.skipReason = resolved.skipReason;
        this.skip();
      }
      target = resolved.target;
    });
    body(() => {
      if (!target) throw new Error('MongoDB target used before it was resolved');
      return target;
    });
  });
}

after(async function () {
  this.timeout(60_000);
  await container?.stop();
});
