import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { withSources } from './docs-csp.js';
import { applyConventions } from './openapi-conventions.js';
import { resourceSchemas } from './resource-schemas.js';
import { SECURITY_SCHEMES, SHARED_SCHEMAS, errorEnvelopeSchema } from './shared/openapi-schemas.js';
import { operationComponents } from './shared/operation-schema.js';
import { type AnyOperation, TAGS } from './shared/operation.js';

const INFO = {
  title: 'Account service',
  version: '0.1.0',
  description: 'Sign users up and sign them in. Every response carries X-Request-Id; every error is the ErrorEnvelope.',
};


export interface OpenApiOptions {
  /** The API's public base URL, listed as the one server; absent: `/`, i.e. the host that serves the document. */
  readonly publicUrl?: string;
  /** The event types the capabilities show in the account's activity: listed in the `ActivityEvent` enum beside the core's. */
  readonly activityTypes?: readonly string[];
}

/**
 * Registers the named components (shared, resources, and each operation's request body and success envelope), the OpenAPI 3.1 generator and Swagger UI at /docs (the document at /docs/json).
 * The UI runs under helmet's policy, plus the hashes of any inline script swagger-ui publishes, on /docs only.
 */
export function registerOpenApi(app: FastifyInstance, operations: readonly AnyOperation[], options: OpenApiOptions = {}): void {
  const ownCodes = operations.flatMap((operation) => Object.keys(operation.ownErrors ?? {}));
  for (const schema of [errorEnvelopeSchema(ownCodes), ...SHARED_SCHEMAS, ...resourceSchemas(options.activityTypes), ...operationComponents(operations)]) app.addSchema(schema);
  const server = options.publicUrl === undefined ? { url: '/', description: 'The host serving this document' } : { url: options.publicUrl };
  void app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: INFO,
      servers: [server],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transformObject: (document) => applyConventions('openapiObject' in document ? document.openapiObject : document.swaggerObject, operations),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json['$id'] === 'string' ? json['$id'] : `def-${i}`) },
  });
  void app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { validatorUrl: null },
    transformStaticCSP: (policy) => withSources(policy, 'script-src', app.swaggerCSP.script),
  });
}
