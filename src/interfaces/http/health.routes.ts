import type { FastifyInstance, FastifySchema } from 'fastify';
import { ServiceUnavailable } from '../../application/errors.js';
import type { StoreHealth } from '../../application/ports/store-health.port.js';
import { HttpError, sendError } from './shared/error-mapper.js';
import { errorResponses } from './shared/openapi-schemas.js';
import { ALWAYS_POSSIBLE_ERRORS, OPERATIONS_ROUTE_CONFIG } from './route-config.js';
import type { ShutdownState } from './shutdown-state.js';

export interface HealthDependencies {
  readonly store: StoreHealth;
  readonly shutdown: ShutdownState;
  readonly checkTimeoutMs?: number;
  /** Where the per-client limits count now (RATE_LIMIT_STORE): each process, Redis, or nowhere while Redis is down. */
  readonly rateLimits?: () => RateLimitsState;
}

/** `per-process` (RATE_LIMIT_STORE=memory), `shared` (Redis answers), `fail-open` (Redis does not: requests go through). */
export type RateLimitsState = 'per-process' | 'shared' | 'fail-open';

const DEFAULT_CHECK_TIMEOUT_MS = 2_000;
const STORE_RETRY_AFTER_SECONDS = 5;

const status = (value: string) => ({
  description: `The service is ${value}`,
  type: 'object',
  required: ['status'],
  additionalProperties: false,
  properties: { status: { type: 'string', const: value } },
});

const withinTimeout = (check: Promise<void>, ms: number): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([check.then(() => true, () => false), timeout]).finally(() => clearTimeout(timer));
};

const liveSchema: FastifySchema = {
  operationId: 'getLiveness',
  summary: 'Liveness probe',
  tags: ['operations'],
  response: { 200: status('live'), ...errorResponses(ALWAYS_POSSIBLE_ERRORS) },
};
const ready = status('ready');
const readySchema: FastifySchema = {
  operationId: 'getReadiness',
  summary: 'Readiness probe: the store is reachable and writable, and the service is not shutting down',
  tags: ['operations'],
  response: {
    200: {
      ...ready,
      required: ['status', 'ratelimits', 'checks'],
      properties: {
        ...ready.properties,
        ratelimits: {
          type: 'string',
          enum: ['per-process', 'shared', 'fail-open'],
          description: 'Where the per-client limits count: each process (RATE_LIMIT_STORE=memory), Redis (shared), or nowhere while Redis does not answer (fail-open; still ready)',
        },
        checks: {
          type: 'object',
          description: 'Each part the service depends on: `ok`, or `degraded` while it serves without it (the per-client limits failing open while Redis does not answer)',
          required: ['store', 'limits'],
          additionalProperties: false,
          properties: {
            store: { type: 'string', const: 'ok', description: 'The store commits a write (else the answer is 503)' },
            limits: { type: 'string', enum: ['ok', 'degraded'], description: '`degraded` while the per-client limits let every request through (ratelimits `fail-open`)' },
          },
        },
      },
    },
    ...errorResponses(['STORE_UNAVAILABLE', ...ALWAYS_POSSIBLE_ERRORS]),
  },
};

/** The 200 answer: ready, where the limits count, and each check (`degraded`: serving without what it checks). */
const readyAnswer = (rateLimits: RateLimitsState) =>
  ({ status: 'ready', ratelimits: rateLimits, checks: { store: 'ok', limits: rateLimits === 'fail-open' ? 'degraded' : 'ok' } }) as const;

/** Why the service is not ready, as the error it answers with; null when it is ready. */
async function notReady(deps: HealthDependencies): Promise<Error | null> {
  if (deps.shutdown.draining) return new HttpError('SHUTTING_DOWN');
  const healthy = await withinTimeout(deps.store.check(), deps.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS);
  return healthy ? null : new ServiceUnavailable('store_unavailable', STORE_RETRY_AFTER_SECONDS);
}

/**
 * GET /health/live (the process answers) and GET /health/ready (the store accepts a write, and not shutting down).
 * A fail-open rate-limit store keeps the service ready (it still serves every request): 200 with `checks.limits`
 * `degraded`, for a dashboard or an alert, never a 503 that would take every instance out of the load balancer at once.
 */
export function healthRoutes(deps: HealthDependencies) {
  return (app: FastifyInstance): void => {
    app.get('/health/live', { config: OPERATIONS_ROUTE_CONFIG, schema: liveSchema }, async () => ({ status: 'live' }));

    app.get('/health/ready', { config: OPERATIONS_ROUTE_CONFIG, schema: readySchema }, async (_request, reply) => {
      const reason = await notReady(deps);
      return reason === null ? readyAnswer(deps.rateLimits?.() ?? 'per-process') : sendError(reply, reason);
    });
  };
}
