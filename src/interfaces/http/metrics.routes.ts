import type { FastifyInstance } from 'fastify';
import { ALWAYS_POSSIBLE_ERRORS, OPERATIONS_ROUTE_CONFIG } from './route-config.js';
import { errorResponses } from './shared/openapi-schemas.js';

/** A metrics registry rendered in a text exposition format (Prometheus). */
export interface MetricsExposition {
  readonly contentType: string;
  /** Renders every metric now. */
  render(): Promise<string>;
}

/** GET /metrics: the Prometheus text exposition. */
export function metricsRoutes(exposition: MetricsExposition) {
  return (app: FastifyInstance): void => {
    app.get(
      '/metrics',
      {
        config: OPERATIONS_ROUTE_CONFIG,
        schema: {
          operationId: 'getMetrics',
          summary: 'Prometheus metrics (text exposition format)',
          tags: ['operations'],
          response: {
            200: { description: 'Every metric, in the Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } },
            ...errorResponses(ALWAYS_POSSIBLE_ERRORS),
          },
        },
      },
      async (_request, reply) => reply.type(exposition.contentType).send(await exposition.render()),
    );
  };
}
