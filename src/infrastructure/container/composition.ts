import { Container, ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { Clock } from '../../application/ports/clock.port.js';
import { CLOCK } from '../../application/ports/clock.port.js';
import { PORT_TOKENS, type Ports } from '../../application/ports/ports.js';
import type { Token } from '../../application/di-token.js';
import type { StoreHealth } from '../../application/ports/store-health.port.js';
import type { Policies, UseCases } from '../../application/registry.js';
import type { Config } from '../config/config.js';
import * as lmdb from '../lmdb/lmdb-storage.js';
import * as memory from '../memory/memory-storage.js';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import * as mongo from '../mongo/mongo-storage.js';
import * as postgres from '../postgres/postgres-storage.js';
import type { Storage, StorageKeys } from '../storage/storage.js';
import { type Schema, schemaOf } from '../storage/ownership.js';
import type { SharedRateLimitStore } from '../rate-limit/redis-rate-limit-store.js';
import { applicationModule, policiesOf } from './application.module.js';
import { type Capability, type CapabilityUseCases, type RawRoute, capabilityNotices } from './capability.js';
import { CAPABILITY_NOTICES } from '../../application/ports/capability-notices.port.js';
import { type PortGetter, corePorts, portBinder, portGetter } from './bind-port.js';
import { coreModule } from './core.module.js';
import { jobsModule } from './jobs.module.js';
import { securityModule } from './security.module.js';
import { storageModule } from './storage.module.js';
import { CONFIG, HTTP, JOB_RUNNER, KEY_RING, PERSONAL_DATA_KEYS, LOGGER, MAIL_DISPATCH_JOB, METRICS, POLICIES, RATE_LIMIT_STORE, SCHEMA, USE_CASES, CAPABILITY_JOBS } from './tokens.js';

/** One part of the running service, started in the order of `Composition.lifecycle` and stopped in reverse. */
export interface Lifecycle {
  readonly name: string;
  start(): Promise<void>;
  /** Idempotent; never called before `start` resolved. */
  stop(): Promise<void>;
}

/** What the HTTP part is built from (main.ts builds the Fastify server from it; the container holds the result). */
export interface Graph {
  readonly config: Config;
  /** The per-client limits' shared store (RATE_LIMIT_STORE=redis); absent: each process counts its own. */
  readonly rateLimitStore?: SharedRateLimitStore | undefined;
  readonly logger: Logger;
  readonly useCases: UseCases;
  readonly metrics: PrometheusMetrics;
  /** The paths the capabilities answer themselves (their manifests' `rawRoutes`). */
  readonly rawRoutes: readonly RawRoute[];
}

export interface CompositionOverrides<H extends Lifecycle = Lifecycle> {
  readonly clock?: Clock | undefined;
  /** Replaces the store's own health check (tests simulate an unreachable store with it). */
  readonly storeHealth?: StoreHealth | undefined;
  /** Ports used instead of the configured adapters (the tests' fakes), bound before anything else. */
  readonly ports?: Partial<Ports> | undefined;
  /** What a capability binds, replaced by token (a capability's port: the tests' fake identity providers), bound first too. */
  readonly bindings?: readonly Binding[] | undefined;
  /** Policy settings over the configuration's (tests). */
  readonly policies?: Partial<Policies> | undefined;
  /** An opened storage to use instead of opening the configured one (the in-memory test world keeps a handle on it). */
  readonly storage?: Storage | undefined;
  /** The HTTP part, bound in the container and started last (main.ts). */
  readonly http?: ((graph: Graph) => H) | undefined;
}

export interface Composition<H extends Lifecycle = Lifecycle, C extends readonly Capability<object, unknown>[] = readonly []> {
  readonly config: Config;
  /** Every port, as bound. */
  readonly ports: Ports;
  /** The core's use cases and every capability's. */
  readonly useCases: UseCases & CapabilityUseCases<C>;
  /** What the container holds under a token (a capability's port, by its token: the admin tools and the tests). */
  readonly get: PortGetter;
  readonly metrics: PrometheusMetrics;
  readonly storage: Storage;
  /** The HTTP part when one was given. */
  readonly http: H | undefined;
  /** Storage, jobs, HTTP: started in this order by `start`, stopped in reverse by `stop`. */
  readonly lifecycle: readonly Lifecycle[];
  /** Starts every part in order; when one fails, stops those started and rejects with its error. */
  start(): Promise<void>;
  /** Stops every part in reverse order, each once, even when an earlier stop failed. Idempotent. */
  stop(): Promise<void>;
  /** Delivers every mail due now, after a delivery run in flight; never rejects (a failure is logged). */
  deliverMail(): Promise<void>;
}

/** One value bound under a token instead of what the capability binds there (`bindingOf` types the pair). */
export type Binding = readonly [Token<unknown>, unknown];

/** A typed override of one token: the value must be what the token names. */
export const bindingOf = <T>(token: Token<T>, value: T): Binding => [token, value];

/** Each storage technology, by STORAGE: its `openStorage(config)`. */
const storages: { readonly [K in Config['storage']['kind']]: (config: Config, keys: StorageKeys, schema: Schema) => Promise<Storage> } = {
  memory: memory.openStorage,
  lmdb: lmdb.openStorage,
  mongodb: mongo.openStorage,
  postgres: postgres.openStorage,
};

/** Binds the overrides first, so the modules loaded after them leave those tokens as they are (see portBinder). */
const overridesModule = (config: Config, overrides: CompositionOverrides<Lifecycle>) =>
  new ContainerModule(({ bind }) => {
    const bindPort = portBinder(bind);
    const ports: Partial<Ports> = { ...overrides.ports, ...(overrides.storeHealth ? { storeHealth: overrides.storeHealth } : {}) };
    for (const [name, port] of Object.entries(ports) as [keyof Ports, Ports[keyof Ports]][]) bindPort(PORT_TOKENS[name], () => port);
    for (const [token, value] of overrides.bindings ?? []) bindPort(token, () => value);
    if (overrides.clock) bindPort(CLOCK, () => overrides.clock as Clock);
    if (overrides.policies) bindPort(POLICIES, () => ({ ...policiesOf(config), ...overrides.policies }));
  });

/** Runs `stop` of each started part in reverse order, every one of them, then throws the first failure. */
async function stopAll(started: Lifecycle[]): Promise<void> {
  const failures: unknown[] = [];
  for (const part of started.splice(0).reverse()) await part.stop().catch((error: unknown) => failures.push(error));
  if (failures.length > 0) throw failures[0] instanceof Error ? failures[0] : new Error(String(failures[0]));
}

/** Binds what each capability declares (after the overrides, before the core's defaults: see portBinder). */
const capabilitiesModule = (capabilities: readonly Capability<object, unknown>[]) =>
  new ContainerModule(({ bind, isBound }) => {
    const bindPort = portBinder(bind, isBound);
    bindPort(SCHEMA, () => schemaOf(capabilities));
    bindPort(CAPABILITY_JOBS, (get) => capabilities.flatMap((capability) => capability.jobs?.(get) ?? []));
    for (const capability of capabilities) capability.bind(bindPort);
    bindPort(CAPABILITY_NOTICES, () => capabilityNotices(capabilities));
  });

/**
 * THE composition, used by main.ts and by every test: binds everything the configuration chooses (and the overrides
 * replace) into one inversify container, storage, use cases, jobs, the capabilities' bindings (`capabilities`: the
 * list of manifests, src/capabilities/index.ts) and the HTTP part included, and resolves the object graph and its
 * ordered lifecycle. The signing key is resolved before the store is opened, so that a key problem is reported
 * before a store problem.
 */
export async function compose<H extends Lifecycle = Lifecycle, const C extends readonly Capability<object, unknown>[] = readonly []>(
  config: Config,
  logger: Logger,
  overrides: CompositionOverrides<H> = {},
  capabilities: C = [] as unknown as C,
): Promise<Composition<H, C>> {
  const container = new Container();
  let merged: (UseCases & CapabilityUseCases<C>) | undefined;
  /** The core's use cases and every capability's, made once: what the composition and the HTTP part are given. */
  const allUseCases = (): UseCases & CapabilityUseCases<C> =>
    (merged ??= Object.assign({}, get(USE_CASES), ...capabilities.map((capability) => capability.useCases(get))) as UseCases & CapabilityUseCases<C>);
  container.load(overridesModule(config, overrides), capabilitiesModule(capabilities), coreModule({ config, logger }), securityModule, applicationModule, jobsModule);
  const get = portGetter(container);
  get(KEY_RING);
  const storage = overrides.storage ?? (await storages[config.storage.kind](config, get(PERSONAL_DATA_KEYS), get(SCHEMA)));
  try {
    await storage.verifyKeys();
  } catch (error) {
    await storage.close();
    throw error;
  }
  let rateLimitStore: SharedRateLimitStore | undefined;
  try {
    container.load(
      storageModule(storage),
      new ContainerModule(({ bind }) => {
        const { http } = overrides;
        if (http) {
          portBinder(bind)(HTTP, (read) =>
            http({
              config: read(CONFIG),
              logger: read(LOGGER),
              useCases: allUseCases(),
              metrics: read(METRICS),
              rateLimitStore: read(RATE_LIMIT_STORE) ?? undefined,
              rawRoutes: capabilities.flatMap((capability) => capability.rawRoutes?.(get) ?? []),
            }),
          );
        }
      }),
    );
    rateLimitStore = get(RATE_LIMIT_STORE) ?? undefined;
    const shared = rateLimitStore;
    const jobs = get(JOB_RUNNER);
    const mail = get(MAIL_DISPATCH_JOB);
    const http = overrides.http ? (get(HTTP) as H) : undefined;
    const lifecycle: Lifecycle[] = [
      { name: 'storage', start: () => Promise.resolve(), stop: () => storage.close() },
      { name: 'jobs', start: () => Promise.resolve(jobs.start()), stop: () => jobs.stop() },
      ...(shared ? [{ name: 'rate-limit store', start: () => shared.ready(5_000), stop: () => shared.close() }] : []),
      ...(http ? [http] : []),
    ];
    const started: Lifecycle[] = [];
    let stopping: Promise<void> | undefined;
    return {
      config,
      ports: corePorts(get),
      get,
      useCases: allUseCases(),
      metrics: get(METRICS),
      storage,
      http,
      lifecycle,
      start: async () => {
        for (const part of lifecycle) {
          try {
            await part.start();
            started.push(part);
          } catch (error) {
            await stopAll(started.length === 0 ? [lifecycle[0] as Lifecycle] : started).catch(() => undefined);
            throw error;
          }
        }
      },
      stop: () => (stopping ??= stopAll(started.length === 0 ? [lifecycle[0] as Lifecycle] : started)),
      deliverMail: () => jobs.runNow(mail),
    };
  } catch (error) {
    await rateLimitStore?.close();
    await storage.close();
    throw error;
  }
}
