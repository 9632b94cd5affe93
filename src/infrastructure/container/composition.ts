import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Clock } from '../../application/ports/clock.port.js';
import { PORT_TOKENS, type Ports } from '../../application/ports/ports.js';
import type { Policies } from '../../application/registry.js';
import type { Config } from '../config/config.js';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import { loadSigningKey } from '../security/signing-key.js';
import { SessionSweepJob } from '../jobs/session-sweep.job.js';
import type { PeriodicJob } from '../jobs/periodic-job.js';
import { VerificationKeyRing, loadPreviousPublicKeys } from '../security/verification-key-ring.js';
import { ensureWritableDataDir } from '../config/startup-checks.js';
import { EventRetentionJob } from '../jobs/event-retention.job.js';
import * as lmdb from '../lmdb/lmdb-storage.js';
import * as memory from '../memory/memory-storage.js';
import * as mongo from '../mongo/mongo-storage.js';
import type { Storage } from '../storage/storage.js';
import { coreModule } from './core.module.js';
import { storageModule } from './storage.module.js';
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

/** Each storage technology, by STORAGE: its `openStorage(config)`. */
const storages: { readonly [K in Config['storage']['kind']]: (config: Config) => Promise<Storage> } = {
  memory: memory.openStorage,
  lmdb: lmdb.openStorage,
  mongodb: mongo.openStorage,
};

/** The retention sweep, where the store has a pruner (MongoDB prunes with a TTL index; memory is lost on restart anyway). */
const retentionJob = (config: Config, storage: Storage, clock: Clock, logger: Logger): EventRetentionJob | null =>
  storage.pruner
    ? new EventRetentionJob(storage.pruner, clock, {
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
  const retention = retentionJob(config, storage, ports.clock, logger);
  const metrics = container.get<PrometheusMetrics>(METRICS);
  if (storage.sizes) metrics.observeStore(storage.sizes);
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
