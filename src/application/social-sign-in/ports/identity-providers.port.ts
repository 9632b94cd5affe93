import { token } from '../../di-token.js';

/** What a provider says of its user once a flow completes: the identity (issuer, subject) and what it shows. */
export interface ProviderProfile {
  /** The provider's issuer identifier (the ID token's `iss`; for GitHub, its API's origin). */
  readonly issuer: string;
  /** The provider's stable id of its user (`sub`; GitHub's numeric id, as text). */
  readonly subject: string;
  /** The address the provider shows, normalised by nobody yet; null when it shows none. */
  readonly email: string | null;
  /** Whether the provider says it proved that address (`email_verified`; GitHub: `primary` and `verified`). */
  readonly emailVerified: boolean;
  readonly givenName: string | null;
  readonly familyName: string | null;
  readonly name: string | null;
}

/**
 * The configured identity providers (OpenID Connect, GitHub's OAuth 2), as the relying party sees them. A flow is
 * named by its `state`, a high-entropy handle this port makes; its nonce and its PKCE verifier are derived from the
 * state under the service's key, so nothing secret of a flow is stored, and a flow can complete only with its own.
 */
export interface IdentityProviders {
  /** Whether a provider of this name is configured (whether or not it is reachable now). Pure. */
  has(provider: string): boolean;
  /** A new random handle (a flow's state, a one-time code): 256 bits, base64url. */
  newHandle(): string;
  /** The keyed fingerprint a handle is stored under: the same for the same handle, not reversible. Pure. */
  idOf(handle: string): string;
  /** The PKCE S256 challenge of a verifier (what the app sent at the start, checked at the exchange). */
  s256(verifier: string): Promise<string>;
  /**
   * The provider's authorization URL for the flow `state` (response_type code, the redirect URI of this service, the
   * scopes, state, nonce and PKCE S256). Throws ProviderFailed('temporarily_unavailable') while the provider's
   * discovery has not succeeded; never calls the provider otherwise.
   */
  authorizationUrl(provider: string, state: string, options?: FlowOptions): Promise<string>;
  /**
   * Completes the flow `state` with the callback's query parameters: exchanges the code with the flow's verifier,
   * checks the ID token (signature by the provider's keys, iss, aud, azp, exp, nonce; RFC 9207's `iss` where sent),
   * and reads the user. Every call to the provider has a deadline. Throws ProviderFailed: `access_denied` when the
   * provider says so, `invalid_response` for any answer that fails a check, `temporarily_unavailable` when it cannot
   * be reached in time.
   */
  complete(provider: string, callback: Readonly<Record<string, string>>, state: string, options?: FlowOptions): Promise<ProviderProfile>;
}

/**
 * A re-authentication: `fresh` asks the provider for a new sign-in (`prompt=login`, `max_age=0`), and `freshSince`
 * makes `complete` refuse (ProviderFailed `login_required`) an answer whose sign-in (`auth_time`, required then) is
 * older than it, less 30 seconds of clock skew. GitHub cannot be asked: its completed flow stands for the sign-in.
 */
export interface FlowOptions {
  readonly fresh?: boolean;
  readonly freshSince?: Date;
}

export const IDENTITY_PROVIDERS = token<IdentityProviders>('IdentityProviders');
