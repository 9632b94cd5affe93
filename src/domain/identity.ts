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
