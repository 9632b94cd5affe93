import type { StoreHealth } from '../../application/ports/store-health.port.js';
import type { FastifyInstance } from 'fastify';
import { healthRoutes } from './health.routes.js';
import { type AuthOperation, type HttpObserver, observeRequests } from './http-observer.js';
import { type MetricsExposition, metricsRoutes } from './metrics.routes.js';
import type { ShutdownState } from './shutdown-state.js';

export interface OperationsOptions {
  readonly storeHealth: StoreHealth;
  /** The POST paths whose outcomes the observer counts (sign-up and sign-in), by their metric label. */
  readonly observed: ReadonlyMap<string, AuthOperation>;
  readonly shutdown: ShutdownState;
  /** Told about every completed response (request metrics, sign-up and sign-in outcomes). */
  readonly observer?: HttpObserver;
  /** Served at GET /metrics. */
  readonly metrics?: MetricsExposition;
  readonly readinessTimeoutMs?: number;
}

/** What an operator needs: health probes, request observation and the metrics endpoint. */
export function registerOperations(app: FastifyInstance, options: OperationsOptions): void {
  if (options.observer) observeRequests(app, options.observer, options.observed);
  const health = { store: options.storeHealth, shutdown: options.shutdown };
  void app.register(healthRoutes(options.readinessTimeoutMs === undefined ? health : { ...health, checkTimeoutMs: options.readinessTimeoutMs }));
  if (options.metrics) void app.register(metricsRoutes(options.metrics));
}
