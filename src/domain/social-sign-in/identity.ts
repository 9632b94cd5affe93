import type { DomainEvent } from '../domain-event.js';

/**
 * An account at an outside provider (OpenID Connect, GitHub) linked to an account here: a way in, named by the
 * provider's issuer and its subject for the user, never by the address (a provider may let its user change the
 * address, and two providers may disagree about it). The same (issuer, subject) always reaches the same account.
 */
export interface IdentitySnapshot {
  /** The identity's own id (what `DELETE /auth/identities/{id}` names). */
  readonly id: string;
  readonly userId: string;
  /** The provider's name in this service's configuration (`google`, `github`, `corp`). */
  readonly provider: string;
  /** The provider's issuer identifier (its `iss`; for GitHub, its API's origin). */
  readonly issuer: string;
  /** The provider's stable id of its user (`sub`; GitHub's numeric id). */
  readonly subject: string;
  /** The address the provider showed when the identity was linked, if any: shown to the owner, never matched on. */
  readonly email: string | null;
  readonly createdAt: Date;
  readonly version?: number;
}

/** The one key of an identity: its issuer and subject together (neither holds a line feed: issuers are URLs). */
export const identityKey = (issuer: string, subject: string): string => `${issuer}\n${subject}`;

/** A provider identity linked to an account (which one and where from; never a token of the provider). */
export type IdentityLinked = DomainEvent<'IdentityLinked', { readonly email: string; readonly identityId: string; readonly provider: string }>;
export type IdentityUnlinked = DomainEvent<'IdentityUnlinked', { readonly email: string; readonly identityId: string; readonly provider: string }>;
/** A sign-in through a provider (its identity named), whatever a second factor then asks. */
export type SignedInWithProvider = DomainEvent<'SignedInWithProvider', { readonly email: string; readonly identityId: string; readonly provider: string }>;

export type IdentityEvent = IdentityLinked | IdentityUnlinked | SignedInWithProvider;

const event = <T extends IdentityEvent['type']>(type: T, userId: string, at: Date, payload: Extract<IdentityEvent, { type: T }>['payload']) =>
  ({ type, aggregateId: userId, occurredAt: at, payload }) as Extract<IdentityEvent, { type: T }>;

type Named = Pick<IdentitySnapshot, 'id' | 'userId' | 'provider'>;

export const identityLinked = (identity: Named, email: string, at: Date) =>
  event('IdentityLinked', identity.userId, at, { email, identityId: identity.id, provider: identity.provider });
export const identityUnlinked = (identity: Named, email: string, at: Date) =>
  event('IdentityUnlinked', identity.userId, at, { email, identityId: identity.id, provider: identity.provider });
export const signedInWithProvider = (identity: Named, email: string, at: Date) =>
  event('SignedInWithProvider', identity.userId, at, { email, identityId: identity.id, provider: identity.provider });
