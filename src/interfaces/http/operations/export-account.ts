import { activityEntry, activityResource } from '../shared/activity-resource.js';
import { USER_REF } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { sessionResource, sessionSchema } from '../shared/session-resource.js';

export const exportAccount = defineOperation({
  method: 'GET',
  path: '/auth/me/export',
  operationId: 'exportAccount',
  summary: 'Everything the service shows about the signed-in account, in one document (right of access)',
  tag: 'account',
  auth: 'bearer',
  hashes: false,
  success: {
    status: 200,
    message: 'Account exported successfully',
    description: 'The account, its live sessions and its retained activity (newest first, at most 1000 entries)',
    data: {
      type: 'object',
      required: ['exportedAt', 'user', 'sessions', 'activity', 'activityTruncated'],
      additionalProperties: false,
      properties: {
        exportedAt: { type: 'string', format: 'date-time' },
        user: { $ref: USER_REF },
        sessions: { type: 'array', items: sessionSchema },
        activity: { type: 'array', items: activityEntry },
        activityTruncated: { type: 'boolean', description: 'True when older activity exists beyond the entries included' },
      },
    },
  },
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ principal }, { exportAccount }) => {
    const exported = await exportAccount.execute({ userId: principal.userId });
    return {
      exportedAt: exported.exportedAt.toISOString(),
      user: exported.user,
      sessions: exported.sessions.map(sessionResource),
      activity: exported.activity.map(activityResource),
      activityTruncated: exported.activityTruncated,
    };
  },
});
