import type { FastifyInstance } from 'fastify';
import type { ActivityEntry } from '../../application/ports/activity-read-model.port.js';
import { ACTIVITY_PAGE_MAX } from '../../application/registry.js';
import type { UseCases } from '../../application/registry.js';
import { type FieldIssue, InvalidInput } from '../../domain/domain-error.js';
import { activityRouteSchema, changeProfileRouteSchema, currentUserRouteSchema, profileSchema } from './account.openapi.js';
import { requestMetadata } from './auth.routes.js';
import { validateBody } from './shared/request-body.js';
import { authenticate } from './shared/bearer-auth.js';
import { validatedByYup } from './openapi.js';
import { noStore } from './shared/no-store.js';

export const CURRENT_USER_MESSAGE = 'User retrieved successfully';
export const ACTIVITY_MESSAGE = 'Account activity retrieved successfully';
export const PROFILE_CHANGED_MESSAGE = 'User updated successfully';
export const LIMIT_RULE = `must be an integer from 1 to ${ACTIVITY_PAGE_MAX}`;
export const CURSOR_RULE = 'is not a valid cursor';
const CURSOR_MAX_LENGTH = 512;

interface ActivityQuery {
  readonly limit: number | undefined;
  readonly cursor: string | undefined;
}

/** Checks the query string: one value each, `limit` an integer in range, `cursor` a bounded string. Throws InvalidInput. */
export function parseActivityQuery(query: unknown): ActivityQuery {
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

const toResource = (entry: ActivityEntry) => ({
  type: entry.type,
  occurredAt: entry.occurredAt.toISOString(),
  clientIp: entry.clientIp,
  userAgent: entry.userAgent,
  ...(entry.reason === undefined ? {} : { reason: entry.reason }),
});

/** GET and PATCH /auth/me, GET /auth/me/activity: authenticate the bearer token, call the use case, shape the envelope. */
export function accountRoutes(useCases: Pick<UseCases, 'authenticate' | 'getCurrentUser' | 'getAccountActivity' | 'changeProfile'>) {
  return (app: FastifyInstance): void => {
    app.get('/auth/me', { schema: currentUserRouteSchema, ...validatedByYup }, async (request, reply) => {
      const { userId } = await authenticate(request, useCases);
      const user = await useCases.getCurrentUser.execute({ userId });
      return noStore(reply).send({ message: CURRENT_USER_MESSAGE, data: { user } });
    });

    app.patch('/auth/me', { schema: changeProfileRouteSchema, ...validatedByYup }, async (request, reply) => {
      const { userId } = await authenticate(request, useCases);
      const body = validateBody(profileSchema, request.body);
      if (!body.ok) throw new InvalidInput(body.issues);
      const user = await useCases.changeProfile.execute({ userId, ...body.value, metadata: requestMetadata(request) });
      return noStore(reply).send({ message: PROFILE_CHANGED_MESSAGE, data: { user } });
    });

    app.get('/auth/me/activity', { schema: activityRouteSchema, ...validatedByYup }, async (request, reply) => {
      const { userId } = await authenticate(request, useCases);
      const page = await useCases.getAccountActivity.execute({ userId, ...parseActivityQuery(request.query) });
      return noStore(reply).send({ message: ACTIVITY_MESSAGE, data: { events: page.entries.map(toResource), nextCursor: page.nextCursor } });
    });
  };
}
