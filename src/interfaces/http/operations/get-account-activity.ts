import { ACTIVITY_PAGE_DEFAULT, ACTIVITY_PAGE_MAX } from '../../../application/registry.js';
import { type FieldIssue, InvalidInput } from '../../../domain/domain-error.js';
import { activityEntry, activityResource } from '../shared/activity-resource.js';
import { defineOperation } from '../shared/operation.js';

const LIMIT_RULE = `must be an integer from 1 to ${ACTIVITY_PAGE_MAX}`;
const CURSOR_RULE = 'is not a valid cursor';
const CURSOR_MAX_LENGTH = 512;

/** Checks the query string: one value each, `limit` an integer in range, `cursor` a bounded string. Throws InvalidInput. */
function parseActivityQuery(query: unknown): { limit: number | undefined; cursor: string | undefined } {
  const { limit, cursor } = (query ?? {}) as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  const limitValue = typeof limit === 'string' && /^\d{1,6}$/.test(limit) ? Number(limit) : NaN;
  if (limit !== undefined && !(limitValue >= 1 && limitValue <= ACTIVITY_PAGE_MAX)) issues.push({ field: 'limit', message: LIMIT_RULE });
  if (cursor !== undefined && (typeof cursor !== 'string' || cursor === '' || cursor.length > CURSOR_MAX_LENGTH)) {
    issues.push({ field: 'cursor', message: CURSOR_RULE });
  }
  if (issues.length > 0) throw new InvalidInput(issues);
  return { limit: limit === undefined ? undefined : limitValue, cursor: cursor as string | undefined };
}

export const getAccountActivity = defineOperation({
  method: 'GET',
  path: '/auth/me/activity',
  operationId: 'getAccountActivity',
  summary: "The account's own security activity, newest first",
  tag: 'account',
  auth: 'bearer',
  hashes: false,
  query: {
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: ACTIVITY_PAGE_MAX, default: ACTIVITY_PAGE_DEFAULT, description: 'Page size' },
      cursor: { type: 'string', minLength: 1, maxLength: CURSOR_MAX_LENGTH, description: 'The nextCursor of the previous page (opaque)' },
    },
  },
  success: {
    status: 200,
    message: 'Account activity retrieved successfully',
    description: 'One page of activity; nextCursor is null on the last page',
    data: {
      type: 'object',
      required: ['events', 'nextCursor'],
      additionalProperties: false,
      properties: { events: { type: 'array', items: activityEntry }, nextCursor: { type: ['string', 'null'] } },
    },
  },
  errors: ['INVALID_INPUT', 'INVALID_CURSOR', 'STORE_UNAVAILABLE'],
  run: async ({ principal, query }, { getAccountActivity }) => {
    const page = await getAccountActivity.execute({ userId: principal.userId, ...parseActivityQuery(query) });
    return { events: page.entries.map(activityResource), nextCursor: page.nextCursor };
  },
});
