import { activityResource } from '../shared/activity-resource.js';
import { USER_REF, componentRef, namedSchema } from '../shared/openapi-schemas.js';
import { defineOperation } from '../shared/operation.js';
import { sessionResource } from '../shared/session-resource.js';
import { withApiNames } from '../shared/api-names.js';

/** `data` of the export: a named component (the generated client's type of the whole export). */
export const ACCOUNT_EXPORT = namedSchema('AccountExport', {
  description: 'Everything the service shows about an account.',
  type: 'object',
  required: ['exportedat', 'user', 'sessions', 'activity', 'activitytruncated', 'records'],
  additionalProperties: false,
  properties: {
    exportedat: { type: 'string', format: 'date-time' },
    user: { $ref: USER_REF },
    sessions: { type: 'array', items: componentRef('Session') },
    activity: { type: 'array', items: componentRef('ActivityEvent') },
    activitytruncated: { type: 'boolean', description: 'True when older activity exists beyond the entries included' },
    records: {
      type: 'object',
      description:
        'The rest the service holds of the account, by kind (`totpfactors`: when added and confirmed, recovery codes left; `passkeys`: ' +
        'id, name, dates, transports, backup state; `identities`: provider, address shown, when linked; `pendingemailchanges`: the address a change waits to move to), each kind always present; ' +
        'never a secret, key or code. Every key follows the API\'s naming rule (lower case, no separators)',
      additionalProperties: { type: 'array', items: { type: 'object', additionalProperties: true } },
    },
  },
});

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
    data: componentRef('AccountExport'),
  },
  schemas: [ACCOUNT_EXPORT],
  attachment: ({ principal }) => `account-${principal.userId}.json`,
  errors: ['STORE_UNAVAILABLE'],
  run: async ({ principal }, { exportAccount }) => {
    const exported = await exportAccount.execute({ userId: principal.userId });
    return {
      exportedat: exported.exportedAt.toISOString(),
      user: exported.user,
      sessions: exported.sessions.map(sessionResource),
      activity: exported.activity.map(activityResource),
      activitytruncated: exported.activityTruncated,
      records: withApiNames(exported.records),
    };
  },
});
