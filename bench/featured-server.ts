import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { Histogram } from 'prom-client';
import { createLogger } from '../src/infrastructure/logging/logger.js';
import { servedBy } from './workers.js';

/**
 * The bare route of bare-server.ts with only what every route of a production service carries and nothing of the
 * product: the service's logger (a child per request, one access line per answer, to stdout), a per-client rate
 * limit (@fastify/rate-limit) and a latency histogram (prom-client). What the service's GET /auth/me is measured
 * against besides the bare route: the part of the gap that is the product's own. In WORKERS processes like the service.
 */
const logger = createLogger('info');
const app = Fastify({ loggerInstance: logger, disableRequestLogging: true, bodyLimit: 16 * 1024 });
const latency = new Histogram({ name: 'http_request_duration_seconds', help: 'latency', labelNames: ['route', 'method', 'status'] });
const access = logger.child({}, { redact: { paths: [] } });
app.addHook('onResponse', (request, reply, done) => {
  const route = request.routeOptions.url ?? 'unmatched';
  access.info({ reqId: request.id, method: request.method, route, status: reply.statusCode, durationMs: Math.round(reply.elapsedTime) }, 'request completed');
  latency.observe({ route, method: request.method, status: reply.statusCode }, reply.elapsedTime / 1000);
  done();
});
const me = process.env['BARE_ME_BODY'] ?? '{}';
await app.register(async (auth) => {
  await auth.register(rateLimit, { max: 1_000_000, timeWindow: 60_000 });
  auth.get('/auth/me', async (_request, reply) => reply.code(200).header('content-type', 'application/json; charset=utf-8').send(me));
});
await servedBy(async () => {
  await app.listen({ port: Number(process.env['PORT'] ?? 0), host: '127.0.0.1' });
});
