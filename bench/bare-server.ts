import Fastify from 'fastify';
import { busyWait } from './work-curve.js';
import { servedBy } from './workers.js';

/** The floors: bare Fastify routes answering the same bytes as the service, no validation, no logging; in WORKERS processes like the service. */
const app = Fastify({ logger: false, bodyLimit: 16 * 1024 });
const body = { message: 'Invalid input data', errors: [{ field: 'email', message: 'is required' }, { field: 'password', message: 'is required' }] };
app.post('/auth/sign-in', async (_request, reply) => reply.code(400).send(body));
/** The bytes the service answered to GET /auth/me, given by the benchmark (BARE_ME_BODY). */
const me = process.env['BARE_ME_BODY'] ?? '{}';
app.get('/auth/me', async (_request, reply) => reply.code(200).header('content-type', 'application/json; charset=utf-8').send(me));
/** The same bytes after `micros` µs of CPU (at most 1 ms): the benchmark's curve of what work per answer costs. */
app.get<{ Params: { micros: string } }>('/work/:micros', async (request, reply) => {
  busyWait(Math.min(1000, Number(request.params.micros) || 0));
  return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(me);
});
await servedBy(async () => {
  await app.listen({ port: Number(process.env['PORT'] ?? 0), host: '127.0.0.1' });
});
