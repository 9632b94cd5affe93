import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { type Config, ConfigError, loadConfig } from './infrastructure/config/config.js';
import { type CompositionOverrides, type Graph, type Lifecycle, compose } from './infrastructure/container/composition.js';
import type { Storage } from './infrastructure/storage/storage.js';
import { CAPABILITIES } from './capabilities/index.js';
import { type Capability, capabilityActivityTypes } from './infrastructure/container/capability.js';
import type { AnyOperation } from './interfaces/http/shared/operation.js';
import { listenFailure } from './infrastructure/config/startup-checks.js';
import { configuredThreadPoolSize, threadPoolSizeFor } from './infrastructure/config/thread-pool.cjs';
import { installRejectionPolicy, routeConsoleToLogger } from './infrastructure/process-policy.js';
import { createLogger } from './infrastructure/logging/logger.js';
import { WORKER_MARK } from './infrastructure/cluster/worker.js';
import { runPrimary } from './infrastructure/cluster/primary.js';
import { buildHttpServer } from './interfaces/http/server.js';
import { ShutdownState } from './interfaces/http/shutdown-state.js';

export interface RunningService {
  readonly app: FastifyInstance;
  /** Delivers every mail due now (tests call it instead of waiting for the timer). */
  deliverMail(): Promise<void>;
  readonly url: string;
  readonly config: Config;
  /**
   * The store it opened, for a tool run in the same process (the tests' in-process command line): LMDB must not be
   * opened twice in one process (two handles on one file deadlock their write locks).
   */
  readonly storage: Storage;
  /**
   * Fails readiness and keeps serving for SHUTDOWN_DRAIN_MS, then stops accepting connections, lets in-flight
   * requests finish and closes the store. Idempotent.
   */
  close(): Promise<void>;
}

/** A capability as the service composes it: its manifest, with HTTP operations declared like the core's. */
export type ServiceCapability = Capability<object, AnyOperation>;

export interface StartOptions extends Omit<CompositionOverrides, 'http'> {
  readonly logger?: Logger;
  /** The capabilities to compose: src/capabilities/index.ts's list (a test adds one of its own). */
  readonly capabilities?: readonly ServiceCapability[];
  /** How long /health/ready waits for the store check (default 2 s). */
  readonly readinessTimeoutMs?: number;
}

/** The HTTP part of the lifecycle: the Fastify server, listening once started; draining, then closed, when stopped. */
interface HttpPart extends Lifecycle {
  readonly app: FastifyInstance;
  readonly url: () => string;
}

/** Builds the HTTP part from the graph: the one place the interfaces meet the composition. */
const httpPart =
  (options: StartOptions, capabilities: readonly ServiceCapability[]) =>
  ({ config, logger, useCases, metrics, rateLimitStore, rawRoutes }: Graph): HttpPart => {
    const shutdown = new ShutdownState();
    const app = buildHttpServer({
      logger,
      bodyLimitBytes: config.http.bodyLimitBytes,
      timeoutsMs: config.http.timeoutsMs,
      maxConnections: config.http.maxConnections,
      rateLimit: { ...config.rateLimit, ...(rateLimitStore ? { redis: rateLimitStore.client, redisUp: rateLimitStore.up } : {}) },
      trustProxy: config.trustProxy,
      cors: { origins: config.corsOrigins },
      ...(config.publicApiUrl === undefined ? {} : { publicUrl: config.publicApiUrl }),
      useCases,
      capabilityOperations: capabilities.flatMap((capability) => capability.operations ?? []),
      capabilityActivityTypes: capabilityActivityTypes(capabilities),
      rawRoutes,
      operations: {
        shutdown,
        observer: metrics,
        metrics,
        ...(options.readinessTimeoutMs === undefined ? {} : { readinessTimeoutMs: options.readinessTimeoutMs }),
      },
    });
    let url = '';
    return {
      name: 'http',
      app,
      url: () => url,
      start: async () => {
        try {
          url = await app.listen({ port: config.http.port, host: config.http.host });
        } catch (error) {
          throw listenFailure(error, config.http.host, config.http.port);
        }
      },
      stop: async () => {
        shutdown.drain();
        if (config.http.shutdownDrainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.http.shutdownDrainMs));
        await app.close();
      },
    };
  };

/** The composition root: config -> compose (adapters, use cases, jobs, HTTP, in one container) -> start in order. */
export async function startService(env: Record<string, string | undefined> = process.env, options: StartOptions = {}): Promise<RunningService> {
  const capabilities = options.capabilities ?? CAPABILITIES;
  const config = loadConfig(env, capabilities);
  const base = options.logger ?? createLogger(config.logLevel, undefined, config.logFormat);
  // A worker of several (WORKERS, src/infrastructure/cluster/primary.ts) names itself on every line.
  const worker = env[WORKER_MARK];
  const logger = worker === undefined ? base : base.child({ worker: Number(worker) });
  const composition = await compose(config, logger, { ...options, http: httpPart(options, capabilities) }, capabilities);
  await composition.start();
  const http = composition.http as HttpPart;
  return { app: http.app, url: http.url(), config, storage: composition.storage, close: () => composition.stop(), deliverMail: () => composition.deliverMail() };
}

const SHUTDOWN_GRACE_MS = 10_000;

/** Warns when libuv's pool was started too small for HASH_CONCURRENCY (the service was not started through start.cjs). */
const warnOnSmallThreadPool = (service: RunningService) => {
  const threads = configuredThreadPoolSize(process.env);
  const needed = threadPoolSizeFor(service.config.hashing.concurrency);
  if (threads < needed) {
    service.app.log.warn({ threads, needed, hashConcurrency: service.config.hashing.concurrency }, 'thread pool smaller than HASH_CONCURRENCY needs: start the service with dist/start.cjs');
  }
};

/**
 * Ends a start that failed, exit 1: the same from a single process and from the primary of WORKERS. One line, except
 * for a configuration with several problems: one line each, under the first.
 */
const failedToStart = (error: unknown): never => {
  const text = error instanceof ConfigError ? error.message : (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
  process.stderr.write(`account-service failed to start: ${text}\n`);
  process.exit(1);
};

/**
 * Starts the primary of WORKERS processes (src/start.cts calls it when WORKERS is above 1) with the configuration
 * loaded as startService loads it, from the one list of manifests: a wrong setting stops it before any worker forks.
 */
export function runPrimaryFromCommandLine(env: Record<string, string | undefined> = process.env): void {
  let config: Config;
  try {
    config = loadConfig(env, CAPABILITIES);
  } catch (error) {
    return failedToStart(error);
  }
  runPrimary(config);
}

/** Starts the service from the command line, stopping it gracefully on SIGTERM or SIGINT (src/start.cts calls it). */
export async function runFromCommandLine(): Promise<void> {
  const starting = startService();
  void starting.then(
    (service) => {
      installRejectionPolicy(service.app.log as Logger);
      routeConsoleToLogger(service.app.log);
    },
    () => undefined,
  );
  const stop = (signal: string) => {
    const deadline = (ms: number) => setTimeout(() => process.exit(1), ms).unref();
    const startGrace = deadline(SHUTDOWN_GRACE_MS);
    starting
      .then(async (service) => {
        clearTimeout(startGrace);
        deadline(SHUTDOWN_GRACE_MS + service.config.http.shutdownDrainMs);
        service.app.log.info({ signal }, 'shutting down');
        await service.close();
      })
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    warnOnSmallThreadPool(await starting);
  } catch (error) {
    failedToStart(error);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void runFromCommandLine();
}
