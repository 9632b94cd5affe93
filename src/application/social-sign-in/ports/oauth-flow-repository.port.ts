import { token } from '../../di-token.js';
import type { RecordedEvent } from '../../ports/event-log.port.js';
import type { ReauthAction } from '../../ports/reauthentications.port.js';

/**
 * A sign-in or link started at a provider and not yet back: found by its state's fingerprint (`id`), used once.
 * Holds nothing secret: the nonce and the service's PKCE verifier are derived from the state (IdentityProviders).
 */
export interface OAuthFlow {
  readonly id: string;
  readonly provider: string;
  /** The app URL the flow returns to (one of OAUTH_REDIRECT_URLS, with the app's own query). */
  readonly redirectTo: string;
  /** The app's PKCE S256 challenge: the one-time code of this flow is redeemed only with its verifier. */
  readonly codeChallenge: string;
  /** The account a link flow links to (null: a sign-in), and the session that asked. */
  readonly linkTo: { readonly userId: string; readonly sessionId: string } | null;
  /** A re-authentication of `linkTo`'s holder (a fresh provider sign-in) for one action, not a link. */
  readonly reauth?: { readonly action: ReauthAction };
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** A one-time code the app redeems with its PKCE verifier for the account's sign-in (POST /auth/oauth/token). */
export interface OAuthCode {
  /** The code's fingerprint (the code itself is never stored). */
  readonly id: string;
  readonly userId: string;
  /** The identity the flow came back with (what SignedInWithProvider names). */
  readonly identityId: string;
  readonly provider: string;
  readonly codeChallenge: string;
  /** The account's session epoch when the code was made: a sign-out everywhere or a reset since kills it. */
  readonly epoch: number;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /**
   * A link flow's code: the identity the provider came back with, linked only at the exchange (by the app that holds
   * the verifier, for the session that asked), never at the callback, which whoever opens the link URL reaches.
   */
  readonly link?: PendingLink;
  /** A re-authentication's code: proves the holder of this session for this one action (proveHolder), nothing else. */
  readonly reauth?: { readonly sessionId: string; readonly action: ReauthAction };
  /** The address the provider showed, for a pending link (personal: sealed at rest). */
  readonly email?: string | null;
}

/** What a link code links at its exchange, and for which session. */
export interface PendingLink {
  readonly sessionId: string;
  readonly issuer: string;
  readonly subject: string;
}

/** How long a flow waits for its callback, and a one-time code for its exchange. */
export const OAUTH_FLOW_SECONDS = 600;
export const OAUTH_CODE_SECONDS = 60;

/**
 * The flows of social sign-in and the one-time codes they end in. Each is used once: a take removes it by
 * compare-and-swap, so of any number of simultaneous takes of one exactly one gets it.
 */
export interface OAuthFlowRepository {
  /** Stores a new flow. Not idempotent (a flow id is new each time). */
  open(flow: OAuthFlow): Promise<void>;
  /**
   * Removes the flow and returns it: null when there is none (unknown, taken already, including by a simultaneous
   * take, or swept). An expired flow is returned (and removed): the caller decides by its `expiresAt`.
   */
  take(id: string): Promise<OAuthFlow | null>;
  /** Stores a new code with the events of the callback that made it, in one commit. */
  issue(code: OAuthCode, events: readonly RecordedEvent[]): Promise<void>;
  /** Removes the code and returns it, as `take` does for flows: null when unknown or taken already. */
  redeem(id: string): Promise<OAuthCode | null>;
}

export const OAUTH_FLOW_REPOSITORY = token<OAuthFlowRepository>('OAuthFlowRepository');
