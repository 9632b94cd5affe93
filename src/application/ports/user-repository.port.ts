import type { User } from '../../domain/user.js';
import type { RecordedEvent } from './event-log.port.js';
import { token } from '../di-token.js';

/**
 * Where accounts live. Every write commits the user's state and the events it produced together,
 * in one transaction: after a crash either both are there or neither is.
 */
export interface UserRepository {
  /** Returns the user with this normalised e-mail, or null when there is none. */
  findByEmail(email: string): Promise<User | null>;

  /** Returns the user with this id, or null when there is none. */
  findById(id: string): Promise<User | null>;

  /**
   * Stores a new user with its events. Throws `EmailAlreadyRegistered` when the e-mail is taken,
   * including by a concurrent call: of any number of simultaneous adds for one e-mail exactly one wins.
   * Not idempotent: adding the same user twice throws `EmailAlreadyRegistered` the second time.
   */
  add(user: User, events: readonly RecordedEvent[]): Promise<void>;

  /**
   * Replaces the stored state of an existing user and appends its events. Idempotent for the state;
   * events already in the log (same `eventId`) are skipped. Throws `UserNotFound` when the user was never added.
   */
  save(user: User, events: readonly RecordedEvent[]): Promise<void>;
}

export const USER_REPOSITORY = token<UserRepository>('UserRepository');
