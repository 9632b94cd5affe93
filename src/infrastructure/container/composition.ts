import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Clock } from '../../application/ports/clock.port.js';
import { PORT_TOKENS, type Ports } from '../../application/ports/ports.js';
import type { Policies } from '../../application/registry.js';
import type { Config } from '../config/config.js';
import { LmdbEventLog } from '../lmdb/lmdb-event-log.js';
import { LmdbOutbox } from '../lmdb/lmdb-outbox.js';
import { LmdbSessionRepository } from '../lmdb/lmdb-session.repository.js';
import { LmdbStoreHealth } from '../lmdb/lmdb-store-health.js';
import { LmdbStore } from '../lmdb/lmdb-store.js';
import { LmdbUserReadModel } from '../lmdb/lmdb-user-read-model.js';
import { LmdbUserRepository } from '../lmdb/lmdb-user.repository.js';
import { InMemoryEventLog } from '../memory/in-memory-event-log.js';
import { InMemoryOutbox } from '../memory/in-memory-outbox.js';
import { InMemorySessionRepository } from '../memory/in-memory-session.repository.js';
import { InMemoryStoreHealth } from '../memory/in-memory-store-health.js';
import { InMemoryStore } from '../memory/in-memory-store.js';
import { InMemoryUserReadModel } from '../memory/in-memory-user-read-model.js';
import { InMemoryUserRepository } from '../memory/in-memory-user.repository.js';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import { MongoEventLog } from '../mongo/mongo-event-log.js';
import { MongoOutbox } from '../mongo/mongo-outbox.js';
import { MongoSessionRepository } from '../mongo/mongo-session.repository.js';
import { MongoStoreHealth } from '../mongo/mongo-store-health.js';
import { MongoStore } from '../mongo/mongo-store.js';
import { MongoUserReadModel } from '../mongo/mongo-user-read-model.js';
import { MongoUserRepository } from '../mongo/mongo-user.repository.js';
import { loadSigningKey } from '../security/signing-key.js';
import { SessionSweepJob } from '../jobs/session-sweep.job.js';
import type { PeriodicJob } from '../jobs/periodic-job.js';
import { VerificationKeyRing, loadPreviousPublicKeys } from '../security/verification-key-ring.js';
import { ensureWritableDataDir, dataDirFailure } from '../config/startup-checks.js';
import { EventRetentionJob } from '../jobs/event-retention.job.js';
import { LmdbEventPruner } from '../lmdb/lmdb-event-pruner.js';
import { freeBytes } from '../lmdb/lmdb-write-failures.js';
import { coreModule } from './core.module.js';
import { type StorageAdapters, storageModule } from './storage.module.js';
import { METRICS } from './tokens.js';

export interface Composition {
  /** Every port, resolved: what `buildUseCases` takes. */
  readonly ports: Ports;
  readonly policies: Policies;
  readonly metrics: PrometheusMetrics;
  /** The periodic jobs of the storage (session sweep, retention); the caller runs them. */
  readonly jobs: readonly PeriodicJob[];
  /** Releases what the adapters hold (store handles, pools). Idempotent. */
  close(): Promise<void>;
}

type AnyStorage = StorageAdapters<object>;

/** Each storage technology: how to open it, and which adapters implement the storage ports over it. */
const storages: Record<Config['storage']['kind'], (config: Config) => Promise<AnyStorage>> = {
  memory: () => {
    const store = new InMemoryStore();
    return Promise.resolve({
      store, storeClass: InMemoryStore, close: () => store.close(),
      users: InMemoryUserRepository, userViews: InMemoryUserReadModel, events: InMemoryEventLog, sessions: InMemorySessionRepository, outbox: InMemoryOutbox, health: InMemoryStoreHealth,
    });
  },
  lmdb: (config) => {
    ensureWritableDataDir(config.storage.dataDir);
    const store = openLmdb(config.storage.dataDir, config.storage.minFreeBytes);
    return Promise.resolve({
      store, storeClass: LmdbStore, close: () => store.close(),
      users: LmdbUserRepository, userViews: LmdbUserReadModel, events: LmdbEventLog, sessions: LmdbSessionRepository, outbox: LmdbOutbox, health: LmdbStoreHealth,
    });
  },
  mongodb: async ({ storage: { mongodb }, retention }) => {
    const store = await MongoStore.open({ uri: mongodb.uri ?? '', dbName: mongodb.dbName, operationTimeoutMS: mongodb.timeoutMs, eventRetentionDays: retention.days });
    return {
      store, storeClass: MongoStore, close: () => store.close(),
      users: MongoUserRepository, userViews: MongoUserReadModel, events: MongoEventLog, sessions: MongoSessionRepository, outbox: MongoOutbox, health: MongoStoreHealth,
    };
  },
};

const openLmdb = (dataDir: string, minFreeBytes: number): LmdbStore => {
  try {
    return LmdbStore.open(dataDir, minFreeBytes);
  } catch (error) {
    throw dataDirFailure(dataDir, 'the LMDB store cannot be opened', error);
  }
};

/** The retention sweep of the embedded store (MongoDB has no sweep yet; the in-memory store is lost on restart anyway). */
const retentionJob = (config: Config, store: object, clock: Clock, logger: Logger): EventRetentionJob | null =>
  store instanceof LmdbStore
    ? new EventRetentionJob(new LmdbEventPruner(store), clock, {
        retentionDays: config.retention.days,
        intervalMs: config.retention.sweepIntervalSeconds * 1000,
        batchSize: 500,
        maxBatches: 200,
      }, logger)
    : null;

export interface CompositionOverrides {
  readonly clock?: Clock;
}

const resolvePorts = (container: Container): Ports =>
  Object.fromEntries(Object.entries(PORT_TOKENS).map(([name, token]) => [name, container.get(token)])) as unknown as Ports;

/** Wires every adapter chosen by the configuration into one container and resolves the ports from it. */
export async function compose(config: Config, logger: Logger, overrides: CompositionOverrides = {}): Promise<Composition> {
  const generatesKey = config.storage.kind !== 'memory' && !config.jwt.privateKeyPem && !config.jwt.privateKeyFile && config.env !== 'production';
  if (generatesKey) ensureWritableDataDir(config.storage.dataDir);
  const { key, origin } = loadSigningKey({
    privateKeyPem: config.jwt.privateKeyPem,
    privateKeyFile: config.jwt.privateKeyFile,
    dataDir: config.storage.dataDir,
    production: config.env === 'production',
    ephemeral: config.storage.kind === 'memory',
  });
  if (origin !== 'configured') {
    logger.warn({ kid: key.kid, origin }, 'no JWT_PRIVATE_KEY configured: using a generated signing key (not for production)');
  }
  const keyRing = new VerificationKeyRing(key, loadPreviousPublicKeys(config.jwt));
  logger.info({ kids: keyRing.publicKeys().map((jwk) => jwk.kid) }, 'access tokens accepted from these keys (signing key first)');
  const storage = await storages[config.storage.kind](config);
  const container = new Container();
  let ports: Ports;
  try {
    container.load(coreModule({ config, signingKey: key, keyRing, clock: overrides.clock, logger }), storageModule(storage));
    ports = resolvePorts(container);
  } catch (error) {
    await storage.close();
    throw error;
  }
  const sweep = new SessionSweepJob(ports.sessions, ports.clock, { intervalMs: config.sessions.sweepIntervalSeconds * 1000, batchSize: 500, maxBatches: 100 }, logger);
  const retention = retentionJob(config, storage.store, ports.clock, logger);
  const metrics = container.get<PrometheusMetrics>(METRICS);
  const { store } = storage;
  if (store instanceof LmdbStore) metrics.observeStore(() => ({ sizeBytes: store.sizeBytes(), freeBytes: freeBytes(store.dataDir) }));
  let closed: Promise<void> | undefined;
  return {
    ports,
    policies: {
      signInThrottle: config.throttle,
      sessions: config.sessions,
      mail: config.mail,
      delivery: { leaseMs: 30_000, batchSize: 20, baseBackoffMs: config.mail.retryBaseMs, maxBackoffMs: config.mail.retryMaxMs },
    },
    metrics,
    jobs: retention ? [sweep, retention] : [sweep],
    close: () => (closed ??= storage.close()),
  };
}
