import type { FastifyInstance } from 'fastify';
import type { ActivityEntry } from '../../application/queries/activity-read-model.port.js';
import type { GetAccountActivityHandler } from '../../application/queries/get-account-activity.handler.js';
import { CURSOR_RULE, LIMIT_RULE } from '../../application/queries/get-account-activity.handler.js';
import type { GetCurrentUserHandler } from '../../application/queries/get-current-user.handler.js';
import type { TokenVerifier } from '../../application/ports/token-verifier.port.js';
import { type FieldIssue, InvalidInput } from '../../domain/domain-error.js';
import { activityRouteSchema, currentUserRouteSchema } from './account.openapi.js';
import { authenticate } from './bearer-auth.js';
import { validatedByYup } from './openapi.js';

export interface AccountRouteDeps {
  readonly verifier: TokenVerifier;
  readonly currentUser: Pick<GetCurrentUserHandler, 'execute'>;
  readonly activity: Pick<GetAccountActivityHandler, 'execute'>;
}

export const CURRENT_USER_MESSAGE = 'User retrieved successfully';
export const ACTIVITY_MESSAGE = 'Account activity retrieved successfully';
const CURSOR_MAX_LENGTH = 512;

interface ActivityQuery {
  readonly limit: number | undefined;
  readonly cursor: string | undefined;
}

/** Checks the query string's shape (one value each, digits for limit); the handler owns the range. Throws InvalidInput. */
export function parseActivityQuery(query: unknown): ActivityQuery {
  const { limit, cursor } = (query ?? {}) as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  if (limit !== undefined && (typeof limit !== 'string' || !/^\d{1,6}$/.test(limit))) issues.push({ field: 'limit', message: LIMIT_RULE });
  if (cursor !== undefined && (typeof cursor !== 'string' || cursor === '' || cursor.length > CURSOR_MAX_LENGTH)) {
    issues.push({ field: 'cursor', message: CURSOR_RULE });
  }
  if (issues.length > 0) throw new InvalidInput(issues);
  return { limit: limit === undefined ? undefined : Number(limit), cursor: cursor as string | undefined };
}

const toResource = (entry: ActivityEntry) => ({
  type: entry.type,
  occurredAt: entry.occurredAt.toISOString(),
  clientIp: entry.clientIp,
  userAgent: entry.userAgent,
  ...(entry.reason === undefined ? {} : { reason: entry.reason }),
});

/** GET /auth/me and GET /auth/me/activity: authenticate the bearer token, call the query handler, shape the envelope. */
export function accountRoutes(deps: AccountRouteDeps) {
  return (app: FastifyInstance): void => {
    app.get('/auth/me', { schema: currentUserRouteSchema, ...validatedByYup }, async (request, reply) => {
      const { userId } = await authenticate(request, deps.verifier);
      const user = await deps.currentUser.execute({ userId });
      return reply.header('cache-control', 'no-store').send({ message: CURRENT_USER_MESSAGE, data: { user } });
    });

    app.get('/auth/me/activity', { schema: activityRouteSchema, ...validatedByYup }, async (request, reply) => {
      const { userId } = await authenticate(request, deps.verifier);
      const page = await deps.activity.execute({ userId, ...parseActivityQuery(request.query) });
      return reply
        .header('cache-control', 'no-store')
        .send({ message: ACTIVITY_MESSAGE, data: { events: page.entries.map(toResource), nextCursor: page.nextCursor } });
    });
  };
}
