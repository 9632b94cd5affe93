import { FIELD_ISSUE_CODES } from '../../../domain/domain-error.js';
import { ERROR_TABLE, type ErrorCode, type ErrorHeader, type ErrorRow } from './error-table.js';
import type { JsonSchema } from './yup-json-schema.js';

/**
 * A reference to a named component (`components.schemas.<name>` in the document). Fastify resolves `Name#` against
 * the schemas added with addSchema, and the generator writes it as `#/components/schemas/Name`: one named type per
 * shape in generated clients instead of one anonymous type per operation.
 */
export const componentRef = (name: string): JsonSchema => ({ $ref: `${name}#` });

/** A named component: the schema with its `$id` (the component's name) and `title`. */
export const namedSchema = (name: string, schema: JsonSchema): JsonSchema => ({ $id: name, title: name, ...schema });

export const ERROR_ENVELOPE_REF = 'ErrorEnvelope#';
export const USER_REF = 'User#';

const fieldIssue: JsonSchema = {
  $id: 'FieldIssue',
  title: 'FieldIssue',
  description: 'One offending input field of an error answer.',
  type: 'object',
  required: ['field', 'message'],
  additionalProperties: false,
  properties: {
    field: { type: ['string', 'null'], description: 'The offending input field, or null when the body as a whole is at fault.' },
    code: { type: 'string', enum: Object.keys(FIELD_ISSUE_CODES), description: 'What is wrong with the field, stable (docs/api.md); present whenever `field` is not null' },
    message: { type: 'string', description: 'For people' },
  },
};

/**
 * The one error envelope. Its `code` lists every code an answer can carry: the core's table and the codes the
 * capabilities' operations declare (`ownErrors`), so a generated client gets them as a union.
 */
export const errorEnvelopeSchema = (ownCodes: readonly string[] = []): JsonSchema => ({
  $id: 'ErrorEnvelope',
  title: 'ErrorEnvelope',
  description: 'Every error answer: the message, the stable code of the refusal and one entry per offending field.',
  type: 'object',
  required: ['message', 'code', 'errors'],
  additionalProperties: false,
  properties: {
    message: { type: 'string', description: 'For people; a 400 always says "Invalid input data". Match on `code`, never on this text' },
    code: { type: 'string', enum: [...new Set([...Object.keys(ERROR_TABLE), ...ownCodes])], description: 'What was refused, stable across releases: the table in docs/api.md' },
    errors: { type: 'array', items: componentRef('FieldIssue') },
  },
  examples: [{ message: 'Invalid input data', code: 'INVALID_INPUT', errors: [{ field: 'email', code: 'REQUIRED', message: 'is required' }] }],
});

/** Shared components: the field issue of the error envelope and the user resource (the rest: resourceSchemas in resource-schemas.ts). */
export const SHARED_SCHEMAS: readonly JsonSchema[] = [
  fieldIssue,
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
 * OpenAPI responses for the given error codes, read from the error table (and `own`: a capability's operation's rows):
 * one response per status, its description listing every cause, its headers those of the causes, its body the shared
 * error envelope.
 */
export const errorResponses = (codes: readonly ErrorCode[], own: Readonly<Record<string, ErrorRow>> = {}): Record<number, JsonSchema> => {
  const byStatus = new Map<number, ErrorRow[]>();
  for (const row of [...new Set(codes)].map((code) => ERROR_TABLE[code]).concat(Object.values(own))) {
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
const API_KEY_SCHEME_NAME = 'apiKey';
/** An API key (`npm run admin -- create-key`) as bearer, with the scope the operation needs. */
export const apiKeySecurity = (scope: string) => [{ [API_KEY_SCHEME_NAME]: [scope] }];
export const SECURITY_SCHEMES = {
  [BEARER_SCHEME_NAME]: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT', description: 'The ES256 access token from sign-up or sign-in' },
  [API_KEY_SCHEME_NAME]: {
    type: 'http' as const,
    scheme: 'bearer',
    bearerFormat: 'API key',
    description:
      "An API key made by `npm run admin -- create-key --scopes ...` (`ask_...`), with the scope the operation names: users:read, users:write or introspect. Or an operator's own access token (`npm run admin -- grant-operator <email>`), from a sign-in with a second factor (amr otp or webauthn): users:read and users:write, never introspect; 403 NOT_AN_OPERATOR or SECOND_FACTOR_REQUIRED otherwise",
  },
};

/** `data` of every answer that signs a session in. */
export const sessionTokensData: JsonSchema = componentRef('AuthResult');
/** `data` of an answer that carries the account: `{ user }`. */
export const userData: JsonSchema = componentRef('UserResult');
/** `data` of an accepted request (202): empty. */
export const emptyData: JsonSchema = componentRef('Accepted');
