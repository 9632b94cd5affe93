import type { FastifySchema } from 'fastify';
import { BEARER_SECURITY, apiKeySecurity, componentRef, errorResponses, namedSchema } from './openapi-schemas.js';
import { type AnyOperation, type Success, impliedErrors } from './operation.js';
import { type JsonSchema, yupToJsonSchema } from './yup-json-schema.js';

export const REQUEST_ID_HEADERS: JsonSchema = {
  type: 'object',
  properties: {
    'x-request-id': {
      type: 'string',
      pattern: '^[A-Za-z0-9._:-]{1,128}$',
      description: 'Kept when sane (else a new UUID is used); returned as X-Request-Id on every response',
    },
  },
};

const NO_STORE_HEADERS: JsonSchema = {
  'cache-control': { type: 'string', const: 'no-store', description: 'Never cached: the answer carries tokens or personal data' },
  pragma: { type: 'string', const: 'no-cache', description: 'For HTTP/1.0 caches' },
};

const pascal = (operationId: string): string => `${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}`;

/** The component name of an operation's success envelope (`SignUpResponse`), or null when it answers no envelope. */
const envelopeName = (operation: AnyOperation): string | null =>
  operation.success.status === 204 || 'envelope' in operation.success || 'redirect' in operation.success ? null : `${pascal(operation.operationId)}Response`;

/** The component name of an operation's request body (`SignUpRequest`), or null when it reads none. */
const requestName = (operation: AnyOperation): string | null => (operation.body ? `${pascal(operation.operationId)}Request` : null);

const successResponse = (operation: AnyOperation): JsonSchema => {
  const { success } = operation;
  if (success.status === 204) return { description: success.description, type: 'null' };
  if ('redirect' in success) {
    return { description: success.description, type: 'null', headers: { ...NO_STORE_HEADERS, location: { type: 'string', format: 'uri', description: 'Where the browser goes next' } } };
  }
  if ('envelope' in success) {
    return { description: success.description, headers: { 'cache-control': { type: 'string', const: success.cacheControl } }, ...success.body };
  }
  const attachment = operation.attachment ? { 'content-disposition': { type: 'string', description: 'attachment, with the file name to save it under' } } : {};
  return { description: success.description, headers: { ...NO_STORE_HEADERS, ...attachment }, ...componentRef(envelopeName(operation) ?? '') };
};

const envelopeSchema = (success: Pick<Extract<Success, { message: string }>, 'message' | 'data'>): JsonSchema => ({
  type: 'object',
  required: ['message', 'data'],
  additionalProperties: false,
  properties: { message: { type: 'string', const: success.message }, data: success.data },
});

const bodySchema = (body: NonNullable<AnyOperation['body']>): JsonSchema => {
  const schema = yupToJsonSchema(body.schema, (body.docs ?? {}) as Readonly<Record<string, JsonSchema>>);
  const properties = (schema['properties'] ?? {}) as Readonly<Record<string, JsonSchema>>;
  // Each choice names its fields (with their schemas, so that a generated client types the union); the body's type is the parent's.
  const choice = (fields: readonly string[]): JsonSchema => ({ required: [...fields], properties: Object.fromEntries(fields.map((field) => [field, properties[field] ?? {}])) });
  return {
    ...schema,
    ...(body.oneOf === undefined ? {} : { oneOf: body.oneOf.map(choice) }),
    ...(body.description === undefined ? {} : { description: body.description }),
  };
};

/**
 * The named components the operations' entries refer to: each request body (`<OperationId>Request`), each success
 * envelope (`<OperationId>Response`: its message is the operation's own), the components an operation declares, and
 * each alternative answer once (operations may share one: SecondFactorRequired).
 * Registered as shared schemas before the routes, so that the document lists each shape once, by name.
 */
export function operationComponents(operations: readonly AnyOperation[]): JsonSchema[] {
  const perOperation = operations.flatMap((operation) => {
    const request = requestName(operation);
    const envelope = envelopeName(operation);
    const { success, body } = operation;
    return [
      ...(request !== null && body ? [namedSchema(request, bodySchema(body))] : []),
      ...(envelope !== null && 'message' in success ? [namedSchema(envelope, envelopeSchema(success))] : []),
      ...(operation.schemas ?? []),
    ];
  });
  const alternatives = [...new Set(operations.flatMap((operation) => (operation.alternative ? [operation.alternative] : [])))];
  return [...perOperation, ...alternatives.map((answer) => namedSchema(answer.name, envelopeSchema(answer)))];
}

/**
 * The OpenAPI entry of a declared operation: its request shapes, its success answer, and one response per error
 * status from the error table, covering the codes it declares and those its shape implies. The schemas document;
 * they never validate (the validator is off: the use cases parse every field, and every 400 is the one envelope).
 */
export function operationSchema(operation: AnyOperation): FastifySchema {
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description === undefined ? {} : { description: operation.description }),
    tags: [operation.tag],
    ...(operation.auth === 'bearer' ? { security: BEARER_SECURITY } : {}),
    ...(operation.auth === 'optional-bearer' ? { security: [...BEARER_SECURITY, {}] } : {}),
    ...(operation.auth === 'api-key' ? { security: apiKeySecurity(operation.scope ?? '') } : {}),
    headers: REQUEST_ID_HEADERS,
    ...(operation.body ? { body: componentRef(requestName(operation) ?? '') } : {}),
    ...(operation.params ? { params: operation.params } : {}),
    ...(operation.query ? { querystring: operation.query } : {}),
    response: {
      [operation.success.status]: successResponse(operation),
      ...(operation.alternative
        ? { [operation.alternative.status]: { description: operation.alternative.description, headers: NO_STORE_HEADERS, ...componentRef(operation.alternative.name) } }
        : {}),
      ...errorResponses([...impliedErrors(operation), ...operation.errors], operation.ownErrors),
    },
  };
}
