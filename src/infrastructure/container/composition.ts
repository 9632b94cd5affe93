import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Clock } from '../../application/ports/clock.port.js';
import type { UseCases } from '../../application/registry.js';
import type { Config } from '../config/config.js';
import * as lmdb from '../lmdb/lmdb-storage.js';
import * as memory from '../memory/memory-storage.js';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import * as mongo from '../mongo/mongo-storage.js';
import type { Storage } from '../storage/storage.js';
import { applicationModule } from './application.module.js';
import { portGetter } from './bind-port.js';
import { coreModule } from './core.module.js';
import { jobsModule } from './jobs.module.js';
import { securityModule } from './security.module.js';
import { type StorageOverrides, storageModule } from './storage.module.js';
import { JOB_RUNNER, KEY_RING, MAIL_DISPATCH_JOB, METRICS, USE_CASES } from './tokens.js';

export interface Composition {
  /** Every use case, built by the application's registry over the bound ports. */
  readonly useCases: UseCases;
  readonly metrics: PrometheusMetrics;
  /** Starts every periodic job (the JOBS list); `close()` stops them. */
  startJobs(): void;
  /** Delivers every mail due now, after a delivery run in flight; never rejects (a failure is logged). */
  deliverMail(): Promise<void>;
  /** Stops the jobs (waiting for runs in flight), then releases the store. Idempotent. */
  close(): Promise<void>;
}

export interface CompositionOverrides extends StorageOverrides {
  readonly clock?: Clock;
}

/** Each storage technology, by STORAGE: its `openStorage(config)`. */
const storages: { readonly [K in Config['storage']['kind']]: (config: Config) => Promise<Storage> } = {
  memory: memory.openStorage,
  lmdb: lmdb.openStorage,
  mongodb: mongo.openStorage,
};

/**
 * Binds everything the configuration chooses into one container and resolves what the composition root needs. The
 * signing key is resolved before the store is opened, so that a key problem is reported before a store problem.
 */
export async function compose(config: Config, logger: Logger, overrides: CompositionOverrides = {}): Promise<Composition> {
  const container = new Container();
  container.load(coreModule({ config, logger, clock: overrides.clock }), securityModule, applicationModule, jobsModule);
  const get = portGetter(container);
  get(KEY_RING);
  const storage = await storages[config.storage.kind](config);
  try {
    container.load(storageModule(storage, overrides));
    const useCases = get(USE_CASES);
    const metrics = get(METRICS);
    const jobs = get(JOB_RUNNER);
    const mail = get(MAIL_DISPATCH_JOB);
    let closed: Promise<void> | undefined;
    return {
      useCases,
      metrics,
      startJobs: () => jobs.start(),
      deliverMail: () => jobs.runNow(mail),
      close: () => (closed ??= jobs.stop().then(() => storage.close())),
    };
  } catch (error) {
    await storage.close();
    throw error;
  }
}
