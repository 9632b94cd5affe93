import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { withSources } from './docs-csp.js';
import { applyConventions } from './openapi-conventions.js';
import { ERROR_TABLE, type ErrorCode, type ErrorHeader, type ErrorRow } from './error-table.js';
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
    required: ['id', 'name', 'lastname', 'email', 'emailverified'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string' },
      lastname: { type: 'string' },
      email: { type: 'string', format: 'idn-email', description: 'Lower-cased, Unicode NFC; may be internationalised (RFC 6531)' },
      emailverified: { type: 'boolean', description: 'True once the owner followed the link of the verification mail' },
    },
  },
];

const HEADER_DOCS: { readonly [H in ErrorHeader]: JsonSchema } = {
  'retry-after': { type: 'string', pattern: '^\\d+$', description: 'Seconds to wait before trying again' },
  'www-authenticate': { type: 'string', description: 'Bearer realm="account-service", with error="invalid_token" when a token was presented' },
  connection: { type: 'string', const: 'close', description: 'The connection is closed after this answer' },
};

/**
 * OpenAPI responses for the given error codes, read from the error table: one response per status, its description
 * listing every cause, its headers those of the causes, its body the shared error envelope.
 */
export const errorResponses = (...codes: ErrorCode[]): Record<number, JsonSchema> => {
  const byStatus = new Map<number, ErrorRow[]>();
  for (const code of new Set(codes)) {
    const row = ERROR_TABLE[code];
    byStatus.set(row.status, [...(byStatus.get(row.status) ?? []), row]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, rows]) => {
      const headers = [...new Set(rows.flatMap((row) => row.headers ?? []))];
      const response: JsonSchema = { description: rows.map((row) => row.description).join('; or '), $ref: ERROR_ENVELOPE_REF };
      return [status, headers.length === 0 ? response : { ...response, headers: Object.fromEntries(headers.map((h) => [h, HEADER_DOCS[h]])) }];
    }),
  );
};

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

const TAGS = [
  { name: 'auth', description: 'Sign up and sign in: each answers the user, an access token and a refresh token' },
  { name: 'account', description: 'The signed-in account: profile and security activity' },
  { name: 'sessions', description: 'Refresh, sign-out, signed-in devices and password change' },
  { name: 'mail', description: 'Password reset and e-mail verification by mailed link' },
  { name: 'keys', description: 'The public keys that verify access tokens' },
  { name: 'operations', description: 'Health probes and metrics, for operators' },
];

export interface OpenApiOptions {
  /** The API's public base URL, listed as the one server; absent: `/`, i.e. the host that serves the document. */
  readonly publicUrl?: string;
}

/**
 * Registers the shared schemas, the OpenAPI 3.1 generator and Swagger UI at /docs (the document at /docs/json).
 * The UI runs under helmet's policy, plus the hashes of any inline script swagger-ui publishes, on /docs only.
 */
export function registerOpenApi(app: FastifyInstance, options: OpenApiOptions = {}): void {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  const server = options.publicUrl === undefined ? { url: '/', description: 'The host serving this document' } : { url: options.publicUrl };
  void app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: INFO,
      servers: [server],
      tags: TAGS,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transformObject: (document) => applyConventions('openapiObject' in document ? document.openapiObject : document.swaggerObject),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json['$id'] === 'string' ? json['$id'] : `def-${i}`) },
  });
  void app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { validatorUrl: null },
    transformStaticCSP: (policy) => withSources(policy, 'script-src', app.swaggerCSP.script),
  });
}
