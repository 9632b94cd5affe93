import type { OAuthCode, OAuthFlow } from '../../application/social-sign-in/ports/oauth-flow-repository.port.js';
import type { Table } from '../storage/store.js';

/**
 * Flows of social sign-in awaiting their callback, by their state's fingerprint: ten minutes at most. A link flow
 * names its account (index `byUser`), so the account's erase takes it; a sign-in flow names none yet.
 */
export const OAUTH_FLOWS: Table<OAuthFlow> = {
  name: 'oauth-flows',
  indexes: { byUser: (flow) => (flow.linkTo === null ? null : [flow.linkTo.userId, flow.createdAt.getTime()]) },
  expiresAt: (flow) => flow.expiresAt.getTime(),
  owner: { account: { index: 'byUser' }, credential: false, exported: { not: 'a flow lives ten minutes and holds only where it returns to' } },
};

/**
 * One-time codes awaiting their exchange, by their fingerprint: a minute at most. A code opens its account's session
 * to whoever holds the app's verifier: a way in while it lives, so a reset that takes the account back removes it.
 */
export const OAUTH_CODES: Table<OAuthCode> = {
  name: 'oauth-codes',
  indexes: { byUser: (code) => [code.userId, code.createdAt.getTime()] },
  expiresAt: (code) => code.expiresAt.getTime(),
  owner: { account: { index: 'byUser' }, credential: true, exported: { not: 'a one-time code lives a minute and is never shown again' } },
  personal: { account: (code) => code.userId, fields: ['email'] },
};
