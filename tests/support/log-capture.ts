import type { Logger } from 'pino';
import { createLogger } from '../../src/infrastructure/logging/logger.js';

export interface LogCapture {
  readonly logger: Logger;
  /** Every line written so far, raw. */
  readonly lines: string[];
  /** Every line written so far, parsed. */
  parsed(): Array<Record<string, unknown>>;
}

/** The service's own logger (same redaction), writing into memory. */
export function captureLogs(level: string): LogCapture {
  const lines: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void lines.push(line) });
  return { logger, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
