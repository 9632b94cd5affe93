import { type DestinationStream, type Logger, pino } from 'pino';
import pretty from 'pino-pretty';

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
  // The second factor's secrets and tokens, should anything ever pass them (the code does not).
  ...['refreshtoken', 'refreshToken', 'mfatoken', 'mfaToken', 'secret', 'sealedSecret', 'recoverycode', 'recoveryCode', 'recoverycodes', 'recoveryCodes'].flatMap((field) => [field, `*.${field}`]),
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

/**
 * Whether a logger writes pretty lines for a person (`pretty`, or `auto` on a terminal) rather than JSON (`json`, or
 * `auto` on a pipe or a file, where log collectors read it).
 */
export const writesPretty = (format: 'auto' | 'json' | 'pretty', isTty: boolean): boolean => format === 'pretty' || (format === 'auto' && isTty);

/** Pretty lines (pino-pretty) to `destination` (stdout: 1), written synchronously: no worker thread, nothing lost at exit. */
const prettyTo = (destination: DestinationStream | 1, colorize: boolean): DestinationStream =>
  pretty({ sync: true, colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service', destination });

/**
 * A logger with secrets redacted, to stdout or the given stream: JSON, or pretty lines when `format` says so
 * (LOG_FORMAT, `auto` asks whether stdout is a terminal; see `writesPretty`). Redaction applies before either.
 */
export function createLogger(level: string, destination?: DestinationStream, format: 'auto' | 'json' | 'pretty' = 'json'): Logger {
  const isTty = destination === undefined && process.stdout.isTTY === true;
  const stream = writesPretty(format, isTty) ? prettyTo(destination ?? 1, isTty) : destination;
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: safeError },
      base: { service: 'account-service' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    stream,
  );
}
