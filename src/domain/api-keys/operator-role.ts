import type { DomainEvent } from '../domain-event.js';

/**
 * An account's operator role (`npm run admin -- grant-operator <email>`): its holder's access token is accepted by
 * the admin API, as long as the role is held (read on each request) and the token proved a second factor.
 */
export interface OperatorRole {
  readonly accountId: string;
  readonly grantedAt: Date;
}

/** The account was made an operator (by the command line); the account's own event, shown in its activity. */
export type OperatorGranted = DomainEvent<'OperatorGranted', { readonly accountId: string }>;
/** The account's operator role was taken back: its tokens are refused by the admin API at once. */
export type OperatorRevoked = DomainEvent<'OperatorRevoked', { readonly accountId: string }>;
export type OperatorEvent = OperatorGranted | OperatorRevoked;
