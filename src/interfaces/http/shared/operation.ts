import type { ObjectSchema } from 'yup';
import type { RequestMetadata } from '../../../application/ports/event-log.port.js';
import type { ApiKeyPrincipal, ApiKeyScope, Principal, UseCases } from '../../../application/registry.js';
import type { ErrorCode, ErrorRow } from './error-table.js';
import type { Fields } from './request-body.js';
import type { JsonSchema } from './yup-json-schema.js';

/** The OpenAPI tags, one per group of operations (the document lists them in this order). */
export const TAGS = {
  auth: 'Sign up and sign in: each answers the user, an access token and a refresh token',
  account: 'The signed-in account: profile and security activity',
  sessions: 'Refresh, sign-out, signed-in devices and password change',
  mail: 'Password reset and e-mail verification by mailed link',
  mfa: 'A second factor: an authenticator app (TOTP), recovery codes and step-up',
  passkeys: 'Passkeys (WebAuthn): sign in with no password, a phishing-proof second factor and step-up',
  social: 'Social sign-in: an OpenID Connect provider or GitHub, with the app\'s own PKCE and a one-time code (never a token in a URL); linked identities',
  keys: 'The public keys that verify access tokens',
  admin: 'For operators and services, with an API key as bearer: token introspection (RFC 7662) and the admin API',
  operations: 'Health probes and metrics, for operators',
} as const;

export type Tag = keyof typeof TAGS;
/** The name of each sign-up and sign-in outcome metric (`account_<name>_total`): sign-ins by method, each its own. */
export type AuthOperation = 'sign_up' | 'sign_in' | 'sign_in_oauth' | 'sign_in_passkey';
/**
 * `bearer`: a valid access token is required. `optional-bearer`: one is read when an Authorization header is sent
 * (and must then be valid), and the operation has a form without it (resend by address). `none`: none is read.
 */
export type Auth = 'bearer' | 'optional-bearer' | 'api-key' | 'none';

/** A JSON body: its documented shape (a yup object of the fields the operation reads) and per-field documentation. */
export interface BodyDeclaration<B extends object> {
  readonly schema: ObjectSchema<B>;
  /** JSON Schema keywords per field (lengths, formats, descriptions), merged into the generated schema. */
  readonly docs?: { readonly [K in keyof B]?: JsonSchema };
  /** Named examples for the OpenAPI document. */
  readonly examples?: Readonly<Record<string, { readonly summary: string; readonly value: unknown }>>;
  /**
   * The body carries exactly one of these groups of fields (each group's fields together), e.g. a code, a recovery
   * code or a passkey's answer: documented as `oneOf`, so that a generated client asks for one of them. When none is
   * sent, the 400 names the first group's fields.
   */
  readonly oneOf?: readonly (readonly (keyof B & string)[])[];
  /** The body may be left out entirely (then no Content-Type is needed and every field is absent). */
  readonly optional?: boolean;
  /** Also read as `application/x-www-form-urlencoded` (RFC 7662 introspection); every other operation refuses it (415). */
  readonly form?: boolean;
  readonly description?: string;
}

/** What an operation's `run` receives: the body's fields as sent (unknown types), the principal when `auth: 'bearer'`. */
export interface OperationInput<B extends object, A extends Auth> {
  readonly body: Fields<B>;
  readonly params: Readonly<Record<string, string>>;
  readonly query: unknown;
  readonly meta: RequestMetadata;
  readonly principal: A extends 'bearer' ? Principal : A extends 'optional-bearer' ? Principal | null : A extends 'api-key' ? ApiKeyPrincipal : null;
}

/** The success answer: `{ message, data }` (the documented envelope) unless `envelope: false`; 204 has no body. */
export type Success =
  | { readonly status: 200 | 201 | 202; readonly message: string; readonly description: string; readonly data: JsonSchema }
  | { readonly status: 204; readonly description: string }
  /** A redirect of the browser: `run` returns `{ location }`; no body, no cache, no Referer sent on from the page it lands on. */
  | { readonly status: 302; readonly redirect: true; readonly description: string }
  | { readonly status: 200; readonly envelope: false; readonly description: string; readonly body: JsonSchema; readonly cacheControl: string };

/**
 * A second success answer an operation may give instead of `success`, in the same `{ message, data }` envelope with
 * its own status and message (sign-in: a second factor to prove first). `run` chooses it by returning `alternative(data)`.
 */
export interface AlternativeAnswer {
  readonly status: 200 | 202;
  readonly message: string;
  readonly description: string;
  readonly data: JsonSchema;
  /** Its component name in the OpenAPI document (`SignInSecondFactorRequired`). */
  readonly name: string;
}

const ALTERNATIVE = Symbol('alternative answer');

/** What `run` returns to answer the operation's `alternative` with `data`. */
export interface Alternative {
  readonly [ALTERNATIVE]: true;
  readonly data: unknown;
}

export const alternative = (data: unknown): Alternative => ({ [ALTERNATIVE]: true, data });

export const isAlternative = (result: unknown): result is Alternative => typeof result === 'object' && result !== null && ALTERNATIVE in result;

/**
 * One HTTP operation, declared once: what registerOperation applies to it (authentication, hashing admission, body
 * extraction, request metadata, no-store, the envelope, the rate limit, the documented errors) and its OpenAPI entry.
 */
export interface Operation<B extends object = object, A extends Auth = Auth, U extends object = UseCases> {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: Tag;
  readonly auth: A;
  /** The scope the API key of an `api-key` operation must hold. */
  readonly scope?: ApiKeyScope;
  /** A bearer operation an account may call before its address is verified when REQUIRE_VERIFIED_EMAIL is on (resend). */
  readonly allowsUnverified?: boolean;
  /** Whether it hashes a password: then hashing admission refuses it at the edge when capacity is exhausted (503). */
  readonly hashes: boolean;
  /** The outcome metrics this operation reports, if any (sign-up and sign-in). */
  readonly observedAs?: AuthOperation;
  readonly body?: BodyDeclaration<B>;
  readonly params?: JsonSchema;
  readonly query?: JsonSchema;
  /**
   * 'reset': the stricter per-client limit (PASSWORD_RESET_RATE_LIMIT_MAX per 15 minutes, each route counted apart) on the
   * routes that mail a link or spend one (reset request and confirmation, verification resend), on top of the one on
   * every /auth route.
   */
  readonly rateLimit?: 'reset';
  readonly success: Success;
  /** A success answer to be saved as a file: its name (`Content-Disposition: attachment; filename="..."`). */
  readonly attachment?: (input: OperationInput<B, A>) => string;
  /** Another success answer `run` may choose instead (see AlternativeAnswer). */
  readonly alternative?: AlternativeAnswer;
  /** Named components (namedSchema) this operation's schemas refer to by componentRef, beyond the shared ones. */
  readonly schemas?: readonly JsonSchema[];
  /** The codes `run` can end in, besides those registerOperation implies (see impliedErrors). Checked by the compiler. */
  readonly errors: readonly ErrorCode[];
  /**
   * A capability's own codes this operation answers, each with its row (the core's table holds none of them): an
   * error of the application or the domain with one of these codes is answered as its row says, and documented so.
   */
  readonly ownErrors?: Readonly<Record<string, ErrorRow>>;
  /** `useCases`: the core's registry, or a capability's operation's own use cases (the composition merges them). */
  run(input: OperationInput<B, A>, useCases: U): Promise<unknown>;
}

/** Declares an operation (the identity, typed: `run` sees the body's fields and, for bearer operations, the principal). */
export const defineOperation = <B extends object = Record<string, never>, A extends Auth = Auth, U extends object = UseCases>(operation: Operation<B, A, U>): Operation<B, A, U> =>
  operation;

/**
 * Declares the operations of a capability whose use cases are `U` (its factory's type): `defineOperation` with `U`
 * fixed, each operation's body and auth still inferred.
 */
export const operationsOf =
  <U extends object>() =>
  <B extends object = Record<string, never>, A extends Auth = Auth>(operation: Operation<B, A, U>): Operation<B, A, U> =>
    operation;

/** Routes under this prefix run inside the per-client rate limit, which adds its headers to every answer. */
export const RATE_LIMITED_PREFIX = '/auth/';

/**
 * Whether the framework reads a body sent with this operation: one it declares, and any sent with a DELETE (Fastify
 * parses DELETE bodies, so a malformed, oversized or non-JSON one is refused before the handler; GET bodies are not read).
 */
const readsBody = (operation: AnyOperation): boolean => operation.body !== undefined || operation.method === 'DELETE';

/**
 * The error codes every operation of this shape can answer whatever its use case does: the transport's (431 for
 * oversized headers, answered by the HTTP server before any route, on every operation).
 */
export function impliedErrors(operation: AnyOperation): ErrorCode[] {
  return [
    ...(operation.body ? (['INVALID_INPUT'] as const) : []),
    ...(operation.params ? (['MALFORMED_URL', 'URI_TOO_LONG'] as const) : []),
    ...(readsBody(operation) ? (['MALFORMED_BODY', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'REQUEST_TIMEOUT'] as const) : []),
    ...(operation.auth !== 'none' ? (['MISSING_TOKEN', 'INVALID_TOKEN'] as const) : []),
    ...(operation.auth === 'api-key' ? (['INSUFFICIENT_SCOPE', 'NOT_AN_OPERATOR', 'SECOND_FACTOR_REQUIRED', 'KEY_RATE_LIMITED'] as const) : []),
    ...(operation.auth !== 'none' && operation.allowsUnverified !== true ? (['EMAIL_NOT_VERIFIED'] as const) : []),
    ...(operation.hashes ? (['OVERLOADED'] as const) : []),
    ...(operation.path.startsWith(RATE_LIMITED_PREFIX) ? (['RATE_LIMITED'] as const) : []),
    'INTERNAL',
    'SHUTTING_DOWN',
    'HEADERS_TOO_LARGE',
  ];
}

/** Any declared operation, whatever its body and authentication (what lists and registerOperation take). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list holds operations of different bodies; each was checked by defineOperation
export type AnyOperation = Operation<any, Auth, any>;
