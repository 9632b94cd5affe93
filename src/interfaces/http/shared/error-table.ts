import type { ApplicationErrorCode } from '../../../application/errors.js';
import type { DomainErrorCode, FieldIssue } from '../../../domain/domain-error.js';

/** Failures the HTTP adapter itself detects: parsing, limits, routing, authentication headers, lifecycle. */
export type TransportErrorCode =
  | 'MALFORMED_BODY'
  | 'MALFORMED_URL'
  | 'MALFORMED_REQUEST'
  | 'URI_TOO_LONG'
  | 'HEADERS_TOO_LARGE'
  | 'BODY_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOT_FOUND'
  | 'RATE_LIMITED'
  | 'MISSING_TOKEN'
  | 'SHUTTING_DOWN'
  | 'REQUEST_TIMEOUT'
  | 'INTERNAL';

/** Every code an error answer can carry. */
export type ErrorCode = DomainErrorCode | ApplicationErrorCode | TransportErrorCode;

/** Response headers an error answer may carry, with their OpenAPI description. */
export type ErrorHeader = 'retry-after' | 'www-authenticate' | 'connection';

export interface ErrorRow {
  readonly status: number;
  /** The envelope's `message`. */
  readonly message: string;
  /** The envelope's `errors` when the error itself carries no field issues. */
  readonly issues: readonly FieldIssue[];
  /** The OpenAPI description of this cause (several causes of one status are listed together). */
  readonly description: string;
  /** The `outcome` label of the sign-up and sign-in metrics. */
  readonly outcome: string;
  /** Headers this answer carries (their values come from the error or the row: see error-mapper.ts). */
  readonly headers?: readonly ErrorHeader[];
}

export const INVALID_INPUT_MESSAGE = 'Invalid input data';
const UNAVAILABLE_MESSAGE = 'Service temporarily unavailable';
const body = (message: string): readonly FieldIssue[] => [{ field: null, message }];

/**
 * THE table from error codes to HTTP answers. Its type, `{ readonly [C in ErrorCode]: ErrorRow }`, makes a code
 * without a row a compile error. It drives the status, the envelope, the extra headers, the OpenAPI response
 * descriptions (openapi.ts) and the metrics outcome (http-observer.ts).
 */
export const ERROR_TABLE: { readonly [C in ErrorCode]: ErrorRow } = {
  INVALID_INPUT: {
    status: 400, message: INVALID_INPUT_MESSAGE, issues: [], outcome: 'invalid_input',
    description: 'Invalid input data: one entry per offending field',
  },
  MALFORMED_BODY: {
    status: 400, message: INVALID_INPUT_MESSAGE, issues: body('body is not valid JSON'), outcome: 'invalid_input',
    description: 'The body is not valid JSON in UTF-8 (one entry with field null)',
  },
  MALFORMED_URL: {
    status: 400, message: INVALID_INPUT_MESSAGE, issues: body('the URL is not valid percent-encoding'), outcome: 'invalid_input',
    description: 'The URL is not valid percent-encoding (answered before any route; the URL is never echoed)',
  },
  MALFORMED_REQUEST: {
    status: 400, message: INVALID_INPUT_MESSAGE, issues: body('the request is not valid HTTP/1.1'), outcome: 'invalid_input', headers: ['connection'],
    description: 'The request is not valid HTTP/1.1 (answered by the HTTP server before any route); the connection is closed',
  },
  URI_TOO_LONG: {
    status: 414, message: 'URI too long', issues: body('a path segment exceeds 100 characters'), outcome: 'invalid_input',
    description: 'A path parameter exceeds 100 characters (answered before any route; the URL is never echoed)',
  },
  HEADERS_TOO_LARGE: {
    status: 431, message: 'Request header fields too large', issues: body('the request headers exceed the size limit'), outcome: 'invalid_input', headers: ['connection'],
    description: "The request's headers exceed Node's limit (16 KiB by default); the connection is closed",
  },
  INVALID_CURSOR: {
    status: 400, message: INVALID_INPUT_MESSAGE, issues: [{ field: 'cursor', code: 'INVALID_FORMAT', message: 'is not a valid cursor' }], outcome: 'invalid_input',
    description: 'The cursor is not one this service issued',
  },
  INVALID_CREDENTIALS: {
    status: 401, message: 'Invalid email or password', issues: [], outcome: 'invalid_credentials',
    description: 'Invalid email or password (the same body for an unknown e-mail and a wrong password)',
  },
  INVALID_TOKEN: {
    status: 401, message: 'Invalid or missing access token', issues: [], outcome: 'invalid_token', headers: ['www-authenticate'],
    description: 'The access token is malformed, forged, expired or no longer acceptable',
  },
  INVALID_REFRESH_TOKEN: {
    status: 401, message: 'Invalid refresh token', issues: [], outcome: 'invalid_token',
    description: 'The refresh token is unknown, expired, revoked or reused (one answer for all of them)',
  },
  MISSING_TOKEN: {
    status: 401, message: 'Invalid or missing access token', outcome: 'invalid_token', headers: ['www-authenticate'],
    issues: body('an access token is required (Authorization: Bearer <token>)'),
    description: 'No bearer access token was presented',
  },
  EMAIL_NOT_VERIFIED: {
    status: 403, message: 'Email address not verified', issues: [], outcome: 'unverified',
    description: 'The address is not verified yet and REQUIRE_VERIFIED_EMAIL is on (at sign-in only after the right password); only a new verification mail may be asked for',
  },
  NOT_FOUND: {
    status: 404, message: 'Not found', issues: body('no such route or method'), outcome: 'error',
    description: 'Not found',
  },
  SESSION_NOT_FOUND: {
    status: 404, message: 'Session not found', issues: [], outcome: 'error',
    description: "No live session of the caller has this id (another account's session answers the same)",
  },
  INVALID_MFA_TOKEN: {
    status: 401, message: 'Invalid or expired sign-in challenge', issues: [], outcome: 'invalid_token',
    description: 'The mfatoken is unknown, expired, answered already, ended after 5 wrong codes, or outlived by a password change: sign in again',
  },
  INVALID_MFA_CODE: {
    status: 401, message: 'Invalid code', issues: [], outcome: 'invalid_credentials',
    description: 'The TOTP code or recovery code is wrong or already used (a time step is accepted once per account)',
  },
  STEP_UP_REQUIRED: {
    status: 403, message: 'Second factor required', issues: [], outcome: 'forbidden',
    description: 'The account has a second factor, and this needs a token that proved it recently (amr with otp, auth_time within MFA_STEP_UP_SECONDS): POST /auth/mfa/verify first',
  },
  RECENT_SIGN_IN_REQUIRED: {
    status: 403, message: 'Recent sign-in required', issues: [], outcome: 'forbidden',
    description: 'The account has no password (made by a social sign-in), and this needs a proof made for this request: `code` (its authenticator app), `passkey`, or `oauthcode` with `code_verifier` from POST /auth/oauth/{provider}/reauthenticate',
  },
  MFA_NOT_ENROLLED: {
    status: 404, message: 'No second factor enrolled', issues: [], outcome: 'error',
    description: 'The account has no confirmed second factor',
  },
  PASSKEY_REJECTED: {
    status: 400, message: INVALID_INPUT_MESSAGE, issues: [], outcome: 'invalid_credentials',
    description: 'The WebAuthn answer is refused; the entry says why: its challenge is unknown, used or of the other ceremony, it was made on an origin outside WEBAUTHN_ORIGINS or for another RP ID, without user verification, with a bad signature, by an unknown or removed passkey, or with a counter that went backwards (a possible clone)',
  },
  LAST_SIGN_IN_METHOD: {
    status: 409, message: 'Last way to sign in', issues: [], outcome: 'error',
    description: 'Removing it would leave the account with no password, no passkey and no linked identity',
  },
  MFA_ALREADY_ENROLLED: {
    status: 409, message: 'Second factor already enrolled', issues: body('remove the enrolled factor before enrolling another'), outcome: 'duplicate',
    description: 'The account has a confirmed TOTP factor: remove it (step-up) before enrolling another',
  },
  EMAIL_ALREADY_REGISTERED: {
    status: 409, message: 'Email is already registered', issues: [], outcome: 'duplicate',
    description: 'Email is already registered',
  },
  BODY_TOO_LARGE: {
    status: 413, message: 'Request body is too large', issues: body('body exceeds the size limit'), outcome: 'invalid_input',
    description: 'Request body is too large',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415, message: 'Unsupported media type', issues: body('Content-Type must be application/json'), outcome: 'invalid_input',
    description: 'Unsupported media type: Content-Type must be application/json, with no charset or charset=utf-8',
  },
  RATE_LIMITED: {
    status: 429, message: 'Too many requests', issues: body('rate limit exceeded; try again later'), outcome: 'throttled', headers: ['retry-after'],
    description: 'Too many requests from this client; see Retry-After',
  },
  KEY_RATE_LIMITED: {
    status: 429, message: 'Too many requests', issues: [], outcome: 'throttled', headers: ['retry-after'],
    description: 'Too many requests with this API key (API_KEY_RATE_LIMIT_PER_MINUTE, counted across every instance); see Retry-After',
  },
  INSUFFICIENT_SCOPE: {
    status: 403, message: 'Insufficient scope', issues: [], outcome: 'forbidden',
    description: 'The API key is valid but lacks the scope this operation needs (users:read, users:write or introspect)',
  },
  NOT_AN_OPERATOR: {
    status: 403, message: 'Not an operator', issues: [], outcome: 'forbidden',
    description: "The access token is valid, but its account does not hold the operator role (`npm run admin -- grant-operator`)",
  },
  SECOND_FACTOR_REQUIRED: {
    status: 403, message: 'Second factor required', issues: [], outcome: 'forbidden',
    description: "The operator's access token is from a sign-in with one factor: the admin API needs one whose amr has otp or webauthn (sign in with the second factor, or POST /auth/mfa/verify; set one up first if the account has none)",
  },
  USER_NOT_FOUND: {
    status: 404, message: 'User not found', issues: [], outcome: 'error',
    description: 'No account has this id (deleted, or never made)',
  },
  TOO_MANY_ATTEMPTS: {
    status: 429, message: 'Too many sign-in attempts', issues: [], outcome: 'throttled', headers: ['retry-after'],
    description: 'Too many sign-in attempts: too many failed sign-ins for this account; see Retry-After',
  },
  INTERNAL: {
    status: 500, message: 'Internal server error', issues: [], outcome: 'error',
    description: 'Internal server error (the cause is logged with the request id, never sent)',
  },
  OVERLOADED: {
    status: 503, message: UNAVAILABLE_MESSAGE, issues: body('try again shortly'), outcome: 'shed', headers: ['retry-after'],
    description: 'Overloaded: refused before any work (load shedding); see Retry-After',
  },
  STORE_UNAVAILABLE: {
    status: 503, message: UNAVAILABLE_MESSAGE, issues: body('store unavailable'), outcome: 'store_unavailable', headers: ['retry-after'],
    description: 'The store is unreachable or cannot write; see Retry-After',
  },
  REQUEST_TIMEOUT: {
    status: 408, message: 'Request timeout', issues: body('the request did not arrive in time'), outcome: 'timeout', headers: ['connection'],
    description: 'Request timeout: the body stopped arriving (IDLE_TIMEOUT_MS) or took longer than REQUEST_TIMEOUT_MS; the connection is closed',
  },
  SHUTTING_DOWN: {
    status: 503, message: UNAVAILABLE_MESSAGE, issues: body('shutting down'), outcome: 'shed', headers: ['retry-after', 'connection'],
    description: 'Shutting down; see Retry-After',
  },
};

/** Every outcome label the table can produce, plus `success`: what the metrics pre-declare. */
/** The outcome of a sign-in whose password was right, waiting for its second factor (202). */
export const SECOND_FACTOR_REQUIRED = 'second_factor_required';

export const AUTH_OUTCOMES: readonly string[] = ['success', SECOND_FACTOR_REQUIRED, ...new Set(Object.values(ERROR_TABLE).map((row) => row.outcome))];
