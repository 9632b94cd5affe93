/**
 * Every answer the HTTP suites get, checked against the OpenAPI document once they have all run: an operation that
 * answers a status its entry does not list is a document a generated client cannot trust.
 *
 * Recording needs no hook in the service: Fastify publishes each instance it creates on the `fastify.initialization`
 * diagnostics channel (this adds an onResponse hook to it: the route pattern, real sockets and inject() alike), and
 * Node publishes every answer of an HTTP server on `http.server.response.finish` (this sees what is answered before
 * Fastify: the edge's 503 and 408). Answers of routes the document does not list (404 of no route, OPTIONS, HEAD,
 * /docs) are not an operation's; they are left out.
 *
 * Imported (for this effect) by the modules every HTTP spec goes through: test-service, http-client and
 * http-server-options. The check is a root-level `after` hook: it runs once, after every suite of the run.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { UseCases } from '../../src/application/registry.js';
import { createLogger } from '../../src/infrastructure/logging/logger.js';
import { buildHttpServer } from '../../src/interfaces/http/server.js';
import { type OpenApiDocument, operationsOf } from './openapi-check.js';

/** One answer: its method, its status, and the route pattern (`/auth/sessions/:id`) or the raw path it was asked at. */
export interface Observation {
  readonly method: string;
  readonly status: number;
  readonly route?: string;
  readonly path?: string;
}

const observed: Observation[] = [];

/** The index of an answer's observation, on its response object: an answer both sources see is recorded once. */
const INDEX = Symbol('observation');
type Marked = object & { [INDEX]?: number };

/** Records one answer; a second report of the same response replaces the first when it knows the route pattern. */
const record = (response: Marked, observation: Observation): void => {
  const index = response[INDEX];
  if (index === undefined) response[INDEX] = observed.push(observation) - 1;
  else if (observation.route !== undefined) observed[index] = observation;
};

/** The answers recorded so far in this process (a copy). */
export const observations = (): Observation[] => [...observed];

const pathOf = (url: string | undefined): string => (url ?? '').split('?')[0] ?? '';

subscribe('fastify.initialization', (message) => {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route !== undefined) record(reply.raw, { method: request.method, status: reply.statusCode, route });
  });
});

subscribe('http.server.response.finish', (message) => {
  const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
  record(response, { method: request.method ?? '', status: response.statusCode, path: pathOf(request.url) });
});

/** The document's path template of a Fastify route pattern (`:id` is `{id}` there). */
const templateOf = (route: string): string => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const matcherOf = (template: string): RegExp =>
  new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`);

/**
 * The observed answers whose status the document does not list for their operation, one line each
 * (`POST /auth/sign-in 418, seen 2 times`); answers of a method and path the document does not list are left out.
 */
export function undocumentedStatuses(doc: OpenApiDocument, seen: readonly Observation[]): string[] {
  const operations = operationsOf(doc).map(({ path, method, operation }) => ({
    path,
    method: method.toUpperCase(),
    matcher: matcherOf(path),
    statuses: new Set(Object.keys(operation['responses'] ?? {})),
  }));
  const counts = new Map<string, number>();
  for (const answer of seen) {
    const method = answer.method.toUpperCase();
    const template = answer.route === undefined ? undefined : templateOf(answer.route);
    const operation = operations.find((op) => op.method === method && (template === undefined ? op.matcher.test(answer.path ?? '') : op.path === template));
    if (!operation || operation.statuses.has(String(answer.status))) continue;
    const key = `${method} ${operation.path} ${answer.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => `${key}, seen ${count} time${count === 1 ? '' : 's'}`).sort();
}

/** The document the service serves (every operator route included), built in-process around use cases that are never called. */
async function servedDocument(): Promise<OpenApiDocument> {
  const unused = { admission: { admit: () => undefined }, storeHealth: { check: () => Promise.resolve() } } as unknown as UseCases;
  const metrics = { contentType: 'text/plain', render: () => Promise.resolve('') };
  const app = buildHttpServer({
    logger: createLogger('silent'),
    bodyLimitBytes: 16 * 1024,
    rateLimit: { max: 100, windowMs: 60_000 },
    trustProxy: false,
    useCases: unused,
    operations: { metrics },
  });
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
  }
}

if (typeof after === 'function') {
  after('every status the HTTP suites observed is documented for its operation', async function () {
    if (observed.length === 0) return;
    const undocumented = undocumentedStatuses(await servedDocument(), observed);
    if (undocumented.length > 0) {
      throw new Error(`answers with a status the OpenAPI document does not list for the operation:\n  ${undocumented.join('\n  ')}`);
    }
  });
}
