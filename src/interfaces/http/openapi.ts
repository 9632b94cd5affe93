import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { withSources } from './docs-csp.js';
import type { JsonSchema } from './yup-json-schema.js';

export const ERROR_ENVELOPE_REF = 'ErrorEnvelope#';
export const USER_REF = 'User#';

const fieldIssue: JsonSchema = {
  type: 'object',
  required: ['field', 'message'],
  additionalProperties: false,
  properties: {
    field: { type: ['string', 'null'], description: 'The offending input field, or null when the body as a whole is at fault.' },
    message: { type: 'string' },
  },
};

/** Shared components: the one error envelope and the user resource. */
const SHARED_SCHEMAS: readonly JsonSchema[] = [
  {
    $id: 'ErrorEnvelope',
    title: 'ErrorEnvelope',
    description: 'Every error answer: a message and one entry per offending field.',
    type: 'object',
    required: ['message', 'errors'],
    additionalProperties: false,
    properties: { message: { type: 'string' }, errors: { type: 'array', items: fieldIssue } },
  },
  {
    $id: 'User',
    title: 'User',
    type: 'object',
    required: ['id', 'name', 'lastname', 'email'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string' },
      lastname: { type: 'string' },
      email: { type: 'string', format: 'email' },
    },
  },
];

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Invalid input data: one entry per offending field (or a body-level entry with field null)',
  401: 'Invalid email or password (the same body for an unknown e-mail and a wrong password)',
  404: 'Not found',
  409: 'Email is already registered',
  413: 'Request body is too large',
  415: 'Unsupported media type: Content-Type must be application/json',
  429: 'Too many requests from this client; see Retry-After',
  500: 'Internal server error (the cause is logged with the request id, never sent)',
  503: 'Service temporarily unavailable (load shedding, store unavailable or shutting down); see Retry-After',
};

/** Response schemas for the given error statuses, each the shared error envelope. */
export const errorResponses = (...statuses: number[]): Record<number, JsonSchema> =>
  Object.fromEntries(
    statuses.map((status) => [status, { description: ERROR_DESCRIPTIONS[status] ?? `Error ${status}`, $ref: ERROR_ENVELOPE_REF }]),
  );

/** The same responses, each also documenting the given response headers. */
export const withHeaders = (responses: Record<number, JsonSchema>, headers: JsonSchema): Record<number, JsonSchema> =>
  Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, { ...response, headers }]));

const RETRY_AFTER: JsonSchema = { 'retry-after': { type: 'string', pattern: '^\\d+$', description: 'Seconds to wait before trying again' } };

/** The 429 of a rate-limited route: the error envelope and Retry-After. */
export const rateLimitedResponse = (description = ERROR_DESCRIPTIONS[429]): Record<number, JsonSchema> =>
  withHeaders({ 429: { ...errorResponses(429)[429], description } }, RETRY_AFTER);

export const BEARER_SCHEME_NAME = 'bearerAuth';
/** `security` for a route that requires `Authorization: Bearer <accesstoken>`. */
export const BEARER_SECURITY = [{ [BEARER_SCHEME_NAME]: [] }];
const SECURITY_SCHEMES = {
  [BEARER_SCHEME_NAME]: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT', description: 'The ES256 access token from sign-up or sign-in' },
};

/**
 * Route options for a body that yup validates in the handler: the JSON Schema is documentation only, so that
 * Fastify's ajv never answers before yup does and every 400 keeps the same envelope.
 */
export const validatedByYup: { validatorCompiler: FastifySchemaCompiler<unknown> } = {
  validatorCompiler: () => () => true,
};

const INFO = {
  title: 'Account service',
  version: '0.1.0',
  description: 'Sign users up and sign them in. Every response carries X-Request-Id; every error is the ErrorEnvelope.',
};

/**
 * Registers the shared schemas, the OpenAPI 3.1 generator and Swagger UI at /docs (the document at /docs/json).
 * The UI runs under helmet's policy, plus the hashes of any inline script swagger-ui publishes, on /docs only.
 */
export function registerOpenApi(app: FastifyInstance): void {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  void app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: INFO,
      tags: [{ name: 'auth' }, { name: 'account' }, { name: 'keys' }, { name: 'operations' }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json['$id'] === 'string' ? json['$id'] : `def-${i}`) },
  });
  void app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { validatorUrl: null },
    transformStaticCSP: (policy) => withSources(policy, 'script-src', app.swaggerCSP.script),
  });
}
