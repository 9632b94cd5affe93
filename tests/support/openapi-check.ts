import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export type OpenApiDocument = Record<string, any>;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
/**
 * ajv-formats has no `idn-email` (RFC 6531). This is the shape a validating client applies: a local part without
 * spaces or @, and a domain of Unicode letter/digit/hyphen labels with a dot. ASCII-only addresses pass `email` too.
 */
export const IDN_EMAIL = /^[^\s@]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}]{2,}$/u;
ajv.addFormat('idn-email', IDN_EMAIL);

/** Follows a local JSON pointer (`#/components/schemas/User`); undefined when it leads nowhere. */
export const resolvePointer = (doc: OpenApiDocument, ref: string): unknown =>
  ref.startsWith('#/')
    ? ref
        .slice(2)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<any>((node, key) => (node && typeof node === 'object' ? node[key] : undefined), doc)
    : undefined;

/** Every `$ref` value anywhere in the document. */
export function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsIn(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

/** The schema with every local `$ref` replaced by its target, so ajv can compile it alone. */
export function dereference(doc: OpenApiDocument, node: unknown): any {
  if (Array.isArray(node)) return node.map((item) => dereference(doc, item));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') return dereference(doc, resolvePointer(doc, ref));
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, dereference(doc, value)]));
}

/** Validates a value against a (dereferenced) JSON Schema 2020-12; returns ajv's error text or null. */
export function schemaErrors(schema: unknown, value: unknown): string | null {
  const validate = ajv.compile(schema as object);
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

/** The JSON schema documented for one operation's response status, dereferenced; undefined when not documented. */
export const responseSchema = (doc: OpenApiDocument, path: string, method: string, status: number): unknown => {
  const response = doc['paths']?.[path]?.[method]?.responses?.[String(status)];
  return response ? dereference(doc, response.content?.['application/json']?.schema) : undefined;
};

/** The response headers documented for one operation's status, name to (dereferenced) schema. */
export const documentedHeaders = (doc: OpenApiDocument, path: string, method: string, status: number): Record<string, unknown> => {
  const headers = doc['paths']?.[path]?.[method]?.responses?.[String(status)]?.headers ?? {};
  return Object.fromEntries(Object.entries(headers as Record<string, { schema: unknown }>).map(([name, header]) => [name, dereference(doc, header.schema)]));
};

/** Checks a real answer against the document: status documented, body and every documented header valid. Returns the problems. */
export function undocumented(doc: OpenApiDocument, path: string, method: string, res: { status: number; headers: Record<string, unknown>; body: unknown }): string[] {
  const schema = responseSchema(doc, path, method, res.status);
  if (schema === undefined) return [`status ${res.status} of ${method} ${path} is not documented`];
  const problems: string[] = [];
  const bodyErrors = schemaErrors(schema, res.body);
  if (bodyErrors !== null) problems.push(`body: ${bodyErrors} in ${JSON.stringify(res.body)}`);
  for (const [name, headerSchema] of Object.entries(documentedHeaders(doc, path, method, res.status))) {
    const value = res.headers[name.toLowerCase()];
    if (value === undefined) problems.push(`header ${name} is documented but missing`);
    else if (schemaErrors(headerSchema, value) !== null) problems.push(`header ${name}: ${JSON.stringify(value)} off ${JSON.stringify(headerSchema)}`);
  }
  return problems;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Every operation of the document: its path, its method and the operation object. */
export const operationsOf = (doc: OpenApiDocument): { path: string; method: string; operation: Record<string, any> }[] =>
  Object.entries(doc['paths'] as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Record<string, any> })),
  );

/** Keywords that only annotate a schema: two shapes that differ in these alone are the same shape. */
const ANNOTATIONS = new Set(['$id', 'title', 'description', 'examples', 'example', 'default']);

/** A schema without its annotations, at every depth, with object keys sorted: what "the same shape" compares. */
export function shapeOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shapeOf);
  if (!node || typeof node !== 'object') return node;
  const entries = Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key) && !key.startsWith('x-'));
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)).map(([key, value]) => [key, key === 'properties' ? propertiesShape(value) : shapeOf(value)]));
}

/** `properties` maps names to schemas: a property named `description` is a property, not an annotation. */
const propertiesShape = (properties: unknown): unknown =>
  properties && typeof properties === 'object'
    ? Object.fromEntries(Object.entries(properties).sort(([a], [b]) => a.localeCompare(b)).map(([name, schema]) => [name, shapeOf(schema)]))
    : properties;

const pointerPart = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every schema of the paths' request bodies and responses, with its JSON pointer, and every schema nested in it. */
function schemasIn(node: unknown, pointer: string, found: Array<[string, unknown]>): void {
  if (!node || typeof node !== 'object') return;
  found.push([pointer, node]);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, schema] of Object.entries(value)) schemasIn(schema, `${pointer}/properties/${pointerPart(name)}`, found);
    } else if (['items', 'additionalProperties', 'not'].includes(key)) schemasIn(value, `${pointer}/${key}`, found);
    else if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(key) && Array.isArray(value)) value.forEach((item, i) => schemasIn(item, `${pointer}/${key}/${i}`, found));
  }
}

/**
 * Where a request or response schema of the document inlines the shape of a named component (instead of a $ref to
 * it), as `<pointer> inlines <Name>`; also a component that inlines another one. Shapes are compared with every $ref
 * resolved and annotations left out, so a copy that is partly inlined is found too. Empty when every shape is named once.
 */
export function inlinedComponents(doc: OpenApiDocument): string[] {
  const components = Object.entries((doc['components']?.schemas ?? {}) as Record<string, unknown>).map(
    ([name, schema]) => [name, JSON.stringify(shapeOf(dereference(doc, schema)))] as const,
  );
  const found: Array<[string, unknown]> = [];
  for (const { path, method, operation } of operationsOf(doc)) {
    const at = `#/paths/${pointerPart(path)}/${method}`;
    for (const [type, media] of Object.entries((operation['requestBody']?.content ?? {}) as Record<string, { schema?: unknown }>)) {
      schemasIn(media.schema, `${at}/requestBody/content/${pointerPart(type)}/schema`, found);
    }
    for (const [status, response] of Object.entries((operation['responses'] ?? {}) as Record<string, { content?: Record<string, { schema?: unknown }> }>)) {
      for (const [type, media] of Object.entries(response.content ?? {})) schemasIn(media.schema, `${at}/responses/${status}/content/${pointerPart(type)}/schema`, found);
    }
  }
  for (const [name, schema] of Object.entries((doc['components']?.schemas ?? {}) as Record<string, unknown>)) {
    const nested: Array<[string, unknown]> = [];
    schemasIn(schema, `#/components/schemas/${pointerPart(name)}`, nested);
    found.push(...nested.slice(1));
  }
  return found.flatMap(([pointer, schema]) => {
    if (typeof (schema as { $ref?: unknown }).$ref === 'string') return [];
    const shape = JSON.stringify(shapeOf(dereference(doc, schema)));
    return components.filter(([, component]) => component === shape).map(([name]) => `${pointer} inlines ${name}`);
  });
}
