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
