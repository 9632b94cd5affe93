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

/** A JSON logger to stdout (or the given stream) with secrets redacted. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { service: 'account-service' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
