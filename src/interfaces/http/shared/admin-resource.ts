import { ADMIN_PAGE_DEFAULT, ADMIN_PAGE_MAX } from '../../../application/registry.js';
import { componentRef, namedSchema } from './openapi-schemas.js';
import { pageQuerySchema } from './page-query.js';
import type { JsonSchema } from './yup-json-schema.js';

/** An account as the admin API shows it: the public user resource and whether it is disabled. */
export const ADMIN_USER = namedSchema('AdminUser', {
  description: 'An account as an operator sees it: never a secret, a hash or a code.',
  type: 'object',
  required: ['id', 'name', 'lastname', 'email', 'emailverified', 'disabled'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    lastname: { type: 'string' },
    email: { type: 'string', format: 'email' },
    emailverified: { type: 'boolean' },
    disabled: { type: 'boolean', description: 'Disabled by an operator: every sign-in answers as a wrong credential would' },
  },
});

export const ADMIN_USER_PAGE = namedSchema('AdminUserPage', {
  description: 'One page of accounts; a page may hold fewer than `limit` while `nextcursor` is set (at most 1000 accounts are looked at per request).',
  type: 'object',
  required: ['users', 'nextcursor'],
  additionalProperties: false,
  properties: { users: { type: 'array', items: componentRef('AdminUser') }, nextcursor: { type: ['string', 'null'] } },
});

export const ADMIN_USER_DETAILS = namedSchema('AdminUserDetails', {
  description: 'One account: its resource, live sessions, second-factor status and records (passkeys, identities, factor, pending change of address).',
  type: 'object',
  required: ['user', 'sessions', 'secondfactor', 'records'],
  additionalProperties: false,
  properties: {
    user: componentRef('AdminUser'),
    sessions: { type: 'array', items: componentRef('Session') },
    secondfactor: {
      type: 'object',
      required: ['enrolled', 'recoverycodesleft'],
      additionalProperties: false,
      properties: { enrolled: { type: 'boolean' }, recoverycodesleft: { type: 'integer', minimum: 0 } },
    },
    records: { type: 'object', additionalProperties: { type: 'array', items: { type: 'object' } } },
  },
});

export const ADMIN_USER_RESULT = namedSchema('AdminUserResult', {
  description: '`data` of an admin answer that carries the account.',
  type: 'object',
  required: ['user'],
  additionalProperties: false,
  properties: { user: componentRef('AdminUser') },
});

/** `:id`, the account an admin operation acts on. */
export const USER_ID_PARAMS: JsonSchema = { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'An account id (GET /admin/users)' } } };

/** `query`, `limit`, `cursor` of GET /admin/users. */
export const ADMIN_USERS_QUERY: JsonSchema = (() => {
  const page = pageQuerySchema(ADMIN_PAGE_MAX, ADMIN_PAGE_DEFAULT);
  return { ...page, properties: { ...(page['properties'] as Record<string, JsonSchema>), query: { type: 'string', maxLength: 254, description: 'An address prefix, any case; absent: every account' } } };
})();
