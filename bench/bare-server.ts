import Fastify from 'fastify';

/** The floor for the 400 path: a bare Fastify route answering the same envelope, no validation, no logging. */
const app = Fastify({ logger: false, bodyLimit: 16 * 1024 });
const body = { message: 'Invalid input data', errors: [{ field: 'email', message: 'is required' }, { field: 'password', message: 'is required' }] };
app.post('/auth/sign-in', async (_request, reply) => reply.code(400).send(body));
await app.listen({ port: Number(process.env['PORT'] ?? 0), host: '127.0.0.1' });
