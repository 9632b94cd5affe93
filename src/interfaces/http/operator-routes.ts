import type { RateLimitsState } from './health.routes.js';
import type { StoreHealth } from '../../application/ports/store-health.port.js';
import type { FastifyInstance } from 'fastify';
import { healthRoutes } from './health.routes.js';
import { type MetricsExposition, metricsRoutes } from './metrics.routes.js';
import type { ShutdownState } from './shutdown-state.js';

export interface OperationsOptions {
  readonly storeHealth: StoreHealth;
  readonly shutdown: ShutdownState;
  /** Served at GET /metrics. */
  readonly metrics?: MetricsExposition;
  readonly readinessTimeoutMs?: number;
  /** What /health/ready says of the per-client limits. */
  readonly rateLimits?: () => RateLimitsState;
}

/** What an operator needs: health probes and the metrics endpoint (answers are observed by `observeAnswers`). */
export function registerOperations(app: FastifyInstance, options: OperationsOptions): void {
  const health = { store: options.storeHealth, shutdown: options.shutdown, ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}) };
  void app.register(healthRoutes(options.readinessTimeoutMs === undefined ? health : { ...health, checkTimeoutMs: options.readinessTimeoutMs }));
  if (options.metrics) void app.register(metricsRoutes(options.metrics));
}
