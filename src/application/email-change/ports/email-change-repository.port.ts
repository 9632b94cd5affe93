import type { PendingEmailChange, RevertibleEmailChange } from '../../../domain/email-change/email-change.js';
import { token } from '../../di-token.js';

/**
 * The account's change of address waiting for confirmation, and its last confirmed one the previous address may still
 * revert: written by the events of the change (recorded with the user or through AttemptLimits), read here.
 */
export interface EmailChangeRepository {
  /** The account's pending change; null when none (never asked, confirmed, cancelled, or the account erased). Read-only. */
  pendingOf(userId: string): Promise<PendingEmailChange | null>;

  /**
   * The account's last confirmed change of address (the address it moved to and the one it left); null when none, or
   * once it was reverted, or once the sweep removed it (EMAIL_CHANGE_REVERT_SECONDS after it). Read-only.
   */
  revertibleOf(userId: string): Promise<RevertibleEmailChange | null>;
}

export const EMAIL_CHANGE_REPOSITORY = token<EmailChangeRepository>('EmailChangeRepository');
