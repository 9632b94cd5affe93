import { type DestinationStream, type Logger, pino } from 'pino';

/** Paths censored in every log line, wherever a secret could travel. */
export const REDACTED_PATHS = [
  'password',
  'passwordHash',
  'accesstoken',
  'accessToken',
  'token',
  'privateKey',
  '*.password',
  '*.passwordHash',
  '*.accesstoken',
  '*.accessToken',
  '*.token',
  '*.privateKey',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'body',
  '*.body',
];

const MAX_CAUSE_DEPTH = 3;

/**
 * Logs an error as its type, message, code and stack (and its cause, likewise), never its other enumerable
 * properties: a driver error carrying the document or command it failed on would otherwise log it verbatim.
 */
export function safeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: error.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    stack: error.stack,
    ...(error.cause !== undefined && depth < MAX_CAUSE_DEPTH ? { cause: safeError(error.cause, depth + 1) } : {}),
  };
}

/** A JSON logger to stdout (or the given stream) with secrets redacted. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: safeError },
      base: { service: 'account-service' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
