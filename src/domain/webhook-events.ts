import type { UserEvent, UserEventType } from './user.js';

/**
 * The account events sent to webhook receivers, by the type a receiver sees (docs/operators.md lists them). A
 * receiver learns which account and what happened, never a token, hash, secret, code or the person's address or name:
 * it asks the admin API for more (GET /admin/users/:id) while the account exists. A capability's events are sent as
 * its manifest declares (`webhook`, `shows`), not from here.
 */
export const WEBHOOK_TYPES: { readonly [T in UserEventType]?: string } = {
  UserRegistered: 'user.created',
  EmailVerified: 'user.email_verified',
  EmailChanged: 'user.email_changed',
  EmailChangeReverted: 'user.email_change_reverted',
  PasswordChanged: 'user.password_changed',
  PasswordReset: 'user.password_reset',
  CredentialsRemoved: 'user.credentials_removed',
  AccountDisabled: 'user.disabled',
  AccountEnabled: 'user.enabled',
  AccountDeleted: 'user.deleted',
  SignUpCancelled: 'user.deleted',
  SessionRevoked: 'session.revoked',
  SessionsEnded: 'sessions.ended',
};

/** The payload fields a receiver may see of the core's events, where an event has them: ids and reasons, nothing personal. */
const SHOWN: readonly string[] = ['sessionId', 'reason', 'keptSessionId'];

/**
 * The `data` of a webhook for `event`: the account id and the `shown` fields of its payload (the core's SHOWN, or those
 * a capability declared for its event), absent once its account is erased.
 */
export function webhookData(event: Pick<UserEvent, 'aggregateId' | 'payload'>, shown: readonly string[] = SHOWN): Record<string, unknown> {
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  return { userId: event.aggregateId, ...Object.fromEntries(shown.filter((field) => payload[field] !== undefined).map((field) => [field, payload[field]])) };
}
