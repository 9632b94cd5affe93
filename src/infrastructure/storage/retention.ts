import type { RecordedEvent } from '../../application/ports/event-log.port.js';

/** Every event type the log can hold: the User aggregate's, its sessions' and the mail events. */
export type EventType = RecordedEvent['type'];

import type { Retention } from '../../application/ports/event-declarations.js';

export type { Retention } from '../../application/ports/event-declarations.js';

/**
 * The retention of every event type. A new event type fails to compile here until it is classified. Read by the
 * LMDB pruner and by MongoDB's TTL (`expiresAt` on `prune` events only: a TTL index cannot see the outbox).
 */
export const RETENTION: { readonly [T in EventType]: Retention } = {
  UserRegistered: 'keep',
  SignUpCancelled: 'keep',
  AccountDeleted: 'keep',
  AccountDeletionNoticed: 'until-sent',
  AccountDisabled: 'keep',
  AccountEnabled: 'keep',
  CredentialsRemoved: 'keep',
  EmailChanged: 'keep',
  EmailChangeReverted: 'keep',
  NewDeviceSignedIn: 'prune-after-sent',
  PasswordChanged: 'keep',
  PasswordRehashed: 'keep',
  ProfileChanged: 'keep',
  EmailVerified: 'keep',
  PasswordReset: 'keep',
  SessionRevoked: 'keep',
  SessionsEnded: 'keep',
  RefreshTokenReused: 'keep',
  SignInFailed: 'prune',
  UserSignedIn: 'prune',
  SessionStarted: 'prune',
  PasswordResetRequested: 'prune-after-sent',
  EmailVerificationRequested: 'prune-after-sent',
};

/** The retention of an event of a core type (the table above); `keep` for any other (a capability's stamps its own: event-tables.ts). */
export const retentionOf = (type: string): Retention => (RETENTION as Readonly<Record<string, Retention>>)[type] ?? 'keep';

export interface PruneBatch {
  /** Old events looked at in this batch (removed or kept). */
  readonly examined: number;
  readonly removed: number;
  /** True when no event older than the cutoff is left to look at. */
  readonly done: boolean;
}

/** Removes old events that RETENTION lets go, one bounded batch (one write transaction) at a time. */
export interface EventPruner {
  /**
   * Looks at up to `limit` events older than `cutoff` not looked at before, removing those RETENTION lets go.
   * Throws what the store's write throws; a failed batch changes nothing and is retried by the next call.
   */
  pruneBatch(cutoff: Date, limit: number): Promise<PruneBatch>;
}
