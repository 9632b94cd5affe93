import type { PendingEmailChange } from '../../domain/email-change.js';
import { token } from '../di-token.js';

/**
 * The account's change of address waiting for confirmation: written by the events of the change (recorded with the
 * user or through AttemptLimits), read here.
 */
export interface EmailChangeRepository {
  /** The account's pending change; null when none (never asked, confirmed, cancelled, or the account erased). Read-only. */
  pendingOf(userId: string): Promise<PendingEmailChange | null>;
}

export const EMAIL_CHANGE_REPOSITORY = token<EmailChangeRepository>('EmailChangeRepository');
