import { type FieldIssue, InvalidInput } from '../../../domain/domain-error.js';
import type { JsonSchema } from './yup-json-schema.js';

const CURSOR_RULE = 'is not a valid cursor';
const CURSOR_MAX_LENGTH = 512;

export interface PageQuery {
  readonly limit: number | undefined;
  readonly cursor: string | undefined;
}

/**
 * Checks a paged query string: one value each, `limit` an integer from 1 to `max`, `cursor` a bounded string.
 * Throws InvalidInput naming every offending parameter.
 */
export function parsePageQuery(query: unknown, max: number): PageQuery {
  const { limit, cursor } = (query ?? {}) as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  const limitValue = typeof limit === 'string' && /^\d{1,6}$/.test(limit) ? Number(limit) : NaN;
  if (limit !== undefined && !(limitValue >= 1 && limitValue <= max)) issues.push({ field: 'limit', code: 'OUT_OF_RANGE', message: `must be an integer from 1 to ${max}` });
  if (cursor !== undefined && (typeof cursor !== 'string' || cursor === '' || cursor.length > CURSOR_MAX_LENGTH)) {
    issues.push({ field: 'cursor', code: 'INVALID_FORMAT', message: CURSOR_RULE });
  }
  if (issues.length > 0) throw new InvalidInput(issues);
  return { limit: limit === undefined ? undefined : limitValue, cursor: cursor as string | undefined };
}

/** The OpenAPI shape of a paged query string (`limit`, `cursor`). */
export const pageQuerySchema = (max: number, fallback: number): JsonSchema => ({
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: max, default: fallback, description: 'Page size' },
    cursor: { type: 'string', minLength: 1, maxLength: CURSOR_MAX_LENGTH, description: 'The nextcursor of the previous page (opaque)' },
  },
});
