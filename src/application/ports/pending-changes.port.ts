import type { User } from '../../domain/user.js';
import { token } from '../di-token.js';
import type { RecordedEvent, RequestMetadata } from './event-log.port.js';

/**
 * What a capability keeps pending on an account that a new password ends (a change of address waiting for its
 * confirmation): a password changed by its owner or reset from the mailbox takes the account back whole, so the
 * password's commit appends the events that end each pending change. The change of address provides it; without it
 * nothing is pending.
 */
export interface PendingChanges {
  /** The events that end what `user` has pending, stamped as their capability declares them; none when nothing is. Read-only. */
  endedByNewPassword(user: User, at: Date, metadata: RequestMetadata): Promise<readonly RecordedEvent[]>;
}

/** Nothing pending: what the core binds unless a capability provides pending changes. */
export const NOTHING_PENDING: PendingChanges = { endedByNewPassword: () => Promise.resolve([]) };

export const PENDING_CHANGES = token<PendingChanges>('PendingChanges');
