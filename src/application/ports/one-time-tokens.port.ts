import { token } from '../di-token.js';

/**
 * What a mailed link does: a password reset, a verification of the address, the confirmation of a change of address
 * (mailed to the new one) or its cancellation (mailed to the current one; both links of a change share one binding),
 * or the revert of a confirmed change (mailed to the previous address).
 */
export type OneTimePurpose = 'reset' | 'verify' | 'email-change' | 'email-cancel' | 'email-revert';

/** What a one-time token designates. */
export interface OneTimeClaim {
  readonly purpose: OneTimePurpose;
  readonly userId: string;
  readonly issuedAt: Date;
}

/** The account state a token is bound to: a token dies as soon as this state changes. */
export interface BindingSubject {
  readonly id: string;
  readonly email: string;
  readonly passwordHash: string;
  /** The address a change of address moves to (its two links are bound to it too). */
  readonly newEmail?: string;
  /** The address a confirmed change left (a revert link is bound to it and to the address it moved to). */
  readonly previousEmail?: string;
}

/**
 * Single-use tokens for mailed links (password reset, e-mail verification), derived under a server key from the
 * claim and a `binding`: a keyed fingerprint of the account's address (and, for a reset, its password hash). Nothing
 * is stored: the event that asks for the mail keeps the binding, the dispatcher derives the token again, and a token
 * stops matching once the password (reset) or the address (both) changes, or once it has been used.
 */
export interface OneTimeTokens {
  /** The keyed fingerprint of what a token of this purpose is bound to. Pure; not reversible without the key. */
  bindingFor(purpose: OneTimePurpose, subject: BindingSubject): string;

  /** The token for the claim and binding: high-entropy, URL-safe, the same for the same inputs. Pure. */
  issue(claim: OneTimeClaim, binding: string): string;

  /** Parses a token this service could have issued (not yet checked against a binding); null for anything else. */
  read(oneTimeToken: string): OneTimeClaim | null;

  /** True when the token is the one `issue` gives for its claim and this binding (constant-time). */
  matches(oneTimeToken: string, binding: string): boolean;
}

export const ONE_TIME_TOKENS = token<OneTimeTokens>('OneTimeTokens');
