import { exampleOf, withFieldExamples } from './openapi-examples.js';
import { type AnyOperation, RATE_LIMITED_PREFIX } from './shared/operation.js';
import type { JsonSchema } from './shared/yup-json-schema.js';

type Media = { example?: unknown; examples?: unknown; schema?: JsonSchema | undefined };
type RequestBody = { required?: boolean; description?: string; content?: Record<string, Media> };
type Operation = {
  operationId?: string;
  security?: unknown;
  requestBody?: RequestBody;
  responses?: Record<string, { headers?: Record<string, unknown>; content?: Record<string, Media> }>;
};
type Document = { paths?: Record<string, Record<string, unknown> | undefined>; components?: { schemas?: Record<string, object> | undefined } | undefined };

const COMPONENT_PREFIX = '#/components/schemas/';

/**
 * Examples everywhere a reader or a generated client looks: each property its name's realistic value
 * (openapi-examples.ts), and each JSON request body and success answer one whole example made from them, unless the
 * operation declares its own. The paths of values left without one are returned (the document's test wants none).
 */
function documentExamples(document: Document): string[] {
  const schemas = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  for (const schema of Object.values(schemas)) withFieldExamples(schema);
  const resolve = (ref: string): JsonSchema => schemas[ref.startsWith(COMPONENT_PREFIX) ? ref.slice(COMPONENT_PREFIX.length) : ref.replace(/#$/, '')] ?? {};
  const missing: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item ?? {})) {
      if (!METHODS.has(method)) continue;
      const operation = value as Operation;
      const request = operation.requestBody?.content?.['application/json'];
      if (request?.schema && request.examples === undefined) request.example = exampleOf(request.schema, resolve, 'request', missing, `${method} ${path} request`);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const media = status.startsWith('2') ? response.content?.['application/json'] : undefined;
        if (media?.schema && media.examples === undefined) media.example = exampleOf(media.schema, resolve, 'answer', missing, `${method} ${path} ${status}`);
      }
    }
  }
  return missing;
}

/** The values of the document that have no realistic example (none, once every field is covered). */
export const valuesWithoutExample = (document: Document): string[] => documentExamples(structuredClone(document));

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']);


const REQUEST_ID: JsonSchema = {
  description: "The request's id: the client's X-Request-Id when it sent a sane one, else a new UUID. On every log line of the request",
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
};

const RATE_LIMIT: Readonly<Record<string, JsonSchema>> = {
  'x-ratelimit-limit': { description: 'Requests allowed per window for this client', schema: { type: 'string', pattern: '^\\d+$' } },
  'x-ratelimit-remaining': { description: 'Requests left in the current window', schema: { type: 'string', pattern: '^\\d+$' } },
  'x-ratelimit-reset': { description: 'Seconds until the window resets', schema: { type: 'string', pattern: '^\\d+$' } },
};

/**
 * The request body as declared, on the document's requestBody: its description and named examples (the generator
 * drops both beside a `$ref` schema), and `required` only when the body may not be left out (generated clients
 * then let a caller sign out without inventing `{}`).
 */
function documentBody(requestBody: RequestBody, declared: AnyOperation['body']): void {
  if (!declared) return;
  if (declared.optional === true) delete requestBody.required;
  else requestBody.required = true;
  if (declared.description !== undefined) requestBody.description = declared.description;
  const media = requestBody.content?.['application/json'];
  if (media && declared.examples !== undefined) media.examples = declared.examples;
  if (media && declared.form === true && requestBody.content) requestBody.content['application/x-www-form-urlencoded'] = { schema: media.schema };
}

/**
 * What every operation shares, applied to the generated document so that no route can forget it: the headers that
 * hooks put on every answer (X-Request-Id everywhere, the rate-limit headers under /auth/), and `security: []` on
 * every operation that does not require a bearer token (public, stated explicitly); each declared request body's
 * description, examples and whether it is required; and an example for every property, body and success answer.
 */
export function applyConventions<T extends Document>(document: T, operations: readonly AnyOperation[] = []): T {
  const declared = new Map(operations.map((operation) => [operation.operationId, operation]));
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item ?? {})) {
      if (!METHODS.has(method)) continue;
      const operation = value as Operation;
      operation.security ??= [];
      if (operation.requestBody) documentBody(operation.requestBody, declared.get(operation.operationId ?? '')?.body);
      const shared = path.startsWith(RATE_LIMITED_PREFIX) ? { 'x-request-id': REQUEST_ID, ...RATE_LIMIT } : { 'x-request-id': REQUEST_ID };
      for (const response of Object.values(operation.responses ?? {})) response.headers = { ...shared, ...response.headers };
    }
  }
  documentExamples(document);
  return document;
}
