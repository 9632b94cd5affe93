import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApplicationError, InvalidToken, KeyRateLimited, ServiceUnavailable } from '../../../application/errors.js';
import { DomainError, type FieldIssue, TooManyAttempts } from '../../../domain/domain-error.js';
import { ERROR_TABLE, type ErrorCode, type ErrorHeader, type ErrorRow, type TransportErrorCode } from './error-table.js';

declare module 'fastify' {
  interface FastifyReply {
    /** The code of the error this reply answers (the core's, or a capability's declared one), or null for a success. */
    errorCode: AnsweredCode | null;
  }
}

/** The documented error envelope: the contract's `message` and `errors`, and the stable `code` of the refusal. */
export interface ErrorEnvelope {
  readonly message: string;
  readonly code: string;
  readonly errors: readonly FieldIssue[];
}

/** The code of an error answer: one of the core's table, or one a capability's operation declared (`ownErrors`). */
export type AnsweredCode = ErrorCode | (string & Record<never, never>);

export interface MappedError {
  readonly code: AnsweredCode;
  readonly status: number;
  readonly body: ErrorEnvelope;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * A failure the HTTP adapter detects itself; thrown from hooks and handlers, answered by the error handler. An answer
 * (a missing token, an unknown route, a body it cannot read), so, like DomainError, it captures no stack trace.
 */
export class HttpError extends Error {
  constructor(readonly code: TransportErrorCode) {
    const stackFrames = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(code);
    Error.stackTraceLimit = stackFrames;
    this.name = 'HttpError';
  }
}

export const REALM = 'account-service';
const SHUTDOWN_RETRY_AFTER_SECONDS = 5;

/** Framework errors (body parsing and limits, the rate-limit plugin) carry only a status. */
const BY_FRAMEWORK_STATUS: Readonly<Record<number, TransportErrorCode>> = {
  400: 'MALFORMED_BODY',
  413: 'BODY_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

const retryAfterOf = (error: unknown): number | null => {
  if (error instanceof TooManyAttempts || error instanceof ServiceUnavailable || error instanceof KeyRateLimited) return error.retryAfterSeconds;
  return null;
};

const headerValue = (header: ErrorHeader, code: ErrorCode, error: unknown): string | null => {
  switch (header) {
    case 'retry-after': {
      const seconds = retryAfterOf(error) ?? (code === 'SHUTTING_DOWN' ? SHUTDOWN_RETRY_AFTER_SECONDS : null);
      return seconds === null ? null : String(seconds);
    }
    case 'www-authenticate':
      return error instanceof InvalidToken ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`;
    case 'connection':
      return 'close';
  }
};

/** An error a capability's operation declared (its `ownErrors`), answered as its own row says. */
export class DeclaredError extends Error {
  constructor(
    readonly code: string,
    readonly row: ErrorRow,
    readonly issues: readonly FieldIssue[],
  ) {
    super(row.message);
    this.name = 'DeclaredError';
  }
}

const codeOf = (error: unknown): ErrorCode => {
  // A code the table does not hold (a capability's, answered off HTTP: its manifest's `errors`) is a fault here.
  if (error instanceof DomainError || error instanceof ApplicationError || error instanceof HttpError) return error.code in ERROR_TABLE ? (error.code as ErrorCode) : 'INTERNAL';
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return (typeof status === 'number' && BY_FRAMEWORK_STATUS[status]) || 'INTERNAL';
};

/** The answer for any error: its row of the table, the error's own field issues when it has some. Never throws. */
export function mapError(error: unknown): MappedError {
  if (error instanceof DeclaredError) {
    return { code: error.code, status: error.row.status, body: { message: error.row.message, code: error.code, errors: error.issues.length > 0 ? error.issues : error.row.issues }, headers: {} };
  }
  const code = codeOf(error);
  const row = ERROR_TABLE[code];
  const own = code !== 'INTERNAL' && (error instanceof DomainError || error instanceof ApplicationError) ? error.issues : [];
  const headers: Record<string, string> = {};
  for (const header of row.headers ?? []) {
    const value = headerValue(header, code, error);
    if (value !== null) headers[header] = value;
  }
  return { code, status: row.status, body: { message: row.message, code, errors: own.length > 0 ? own : row.issues }, headers };
}

/** Sends the mapped answer and remembers its code on the reply. */
export const sendError = (reply: FastifyReply, error: unknown): FastifyReply => {
  const mapped = mapError(error);
  reply.errorCode = mapped.code;
  return reply.code(mapped.status).headers(mapped.headers).send(mapped.body);
};

/** Declares `reply.errorCode` (null until an error is answered). */
export const trackErrorCodes = (app: FastifyInstance): void => {
  app.decorateReply('errorCode', null);
};
