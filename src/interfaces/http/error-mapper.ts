import type { FieldIssue } from '../../domain/domain-error.js';
import { ServiceUnavailable } from '../../application/ports/service-unavailable.js';
import { DomainError, TooManyAttempts } from '../../domain/domain-error.js';
import { challengeHeaders } from './bearer-auth.js';

/** The documented error envelope. */
export interface ErrorEnvelope {
  readonly message: string;
  readonly errors: readonly FieldIssue[];
}

export interface MappedError {
  readonly status: number;
  readonly body: ErrorEnvelope;
  readonly headers?: Readonly<Record<string, string>>;
}

export const INVALID_INPUT_MESSAGE = 'Invalid input data';

/** The one table from domain error codes to HTTP answers. */
const BY_CODE: Readonly<Record<string, { status: number; message: string }>> = {
  INVALID_INPUT: { status: 400, message: INVALID_INPUT_MESSAGE },
  EMAIL_ALREADY_REGISTERED: { status: 409, message: 'Email is already registered' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid email or password' },
  INVALID_TOKEN: { status: 401, message: 'Invalid or missing access token' },
  TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many sign-in attempts' },
};

const retryAfter = (seconds: number) => ({ 'retry-after': String(seconds) });

/** Errors raised by the HTTP framework itself (parsing, limits), keyed by status. */
const BY_TRANSPORT_STATUS: Readonly<Record<number, ErrorEnvelope>> = {
  400: { message: INVALID_INPUT_MESSAGE, errors: [{ field: null, message: 'body is not valid JSON' }] },
  413: { message: 'Request body is too large', errors: [{ field: null, message: 'body exceeds the size limit' }] },
  429: { message: 'Too many requests', errors: [{ field: null, message: 'rate limit exceeded; try again later' }] },
  415: {
    message: 'Unsupported media type',
    errors: [{ field: null, message: 'Content-Type must be application/json' }],
  },
};

export const INTERNAL_ERROR: MappedError = {
  status: 500,
  body: { message: 'Internal server error', errors: [] },
};

export const envelope = (message: string, errors: readonly FieldIssue[] = []): ErrorEnvelope => ({ message, errors });

/** Returns the status and body for an error, or null when it is unexpected (the caller answers 500 and logs it). */
export function mapError(error: unknown): MappedError | null {
  if (error instanceof DomainError) {
    const mapped = BY_CODE[error.code];
    if (!mapped) return null;
    const body = envelope(mapped.message, error.issues);
    if (error instanceof TooManyAttempts) return { status: mapped.status, body, headers: retryAfter(error.retryAfterSeconds) };
    return { status: mapped.status, body, ...challengeHeaders(error) };
  }
  if (error instanceof ServiceUnavailable) {
    return {
      status: 503,
      body: envelope('Service temporarily unavailable', [{ field: null, message: 'try again shortly' }]),
      headers: retryAfter(error.retryAfterSeconds),
    };
  }
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status in BY_TRANSPORT_STATUS) {
    return { status, body: BY_TRANSPORT_STATUS[status] as ErrorEnvelope };
  }
  return null;
}
