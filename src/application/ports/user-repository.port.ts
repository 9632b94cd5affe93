import type { Session } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import type { Limit } from './attempt-limits.port.js';
import type { LimitAt } from './attempt-limits.port.js';
import type { RecordedEvent } from './event-log.port.js';
import { token } from '../di-token.js';

/**
 * Where accounts live. Every write commits the user's state, the events it produced and, when given, the session it
 * opened (sign-up, sign-in) and those it changed (ended over the per-account cap, or the one kept when all the others
 * end) together, in one transaction: after a
 * crash or a failed commit all of it is there or none.
 */
export interface UserRepository {
  /** Returns the user with this normalised e-mail, or null when there is none. */
  findByEmail(email: string): Promise<User | null>;

  /** Returns the user with this id, or null when there is none. */
  findById(id: string): Promise<User | null>;

  /**
   * Stores a new user (at version 0) with its events and the session `opened` for it, if any. Throws
   * `EmailAlreadyRegistered`, writing nothing, when the e-mail is taken, including by a concurrent call: of any number
   * of simultaneous adds for one e-mail exactly one wins. Adding the same user twice throws the second time.
   * `counted`: attempts counted in the same commit (at the user's creation, never refused: the sign-up's own
   * verification mail counts toward the address's cap). A capability that makes an account with a first record of its
   * own (social sign-in: its identity) adds both in one commit through its own port.
   */
  add(user: User, events: readonly RecordedEvent[], opened?: Session, counted?: readonly Limit[]): Promise<void>;

  /**
   * Compare-and-swap: stores the user's state with its events and the session `opened`, if any, only if the stored
   * user is still at `user.version` (the version it was loaded at), and returns true. The stored version moves on by
   * one when the state changed (`user.changed`); a save that only records events (a sign-in) leaves it, so such saves
   * never refuse one another, while any change refuses the stale ones. Returns false, writing nothing, when another
   * write got there first: reload and decide again (so a sign-in never puts back a password hash that a concurrent
   * change replaced, nor opens a session on it). Events already in the log (same `eventId`) are skipped. A user that
   * is not stored (erased meanwhile by "not me" or the unverified-account sweep, or never added) is such a lost race
   * too: false, writing nothing, never a throw; the caller's reload finds no account and refuses as it does for an
   * unknown one (a one-time token's 400, an access token's 401). `changed`: sessions changed in the same commit (those a sign-in
   * ends over the per-account cap; the one kept when the account's sessions end at once), each stored only if its
   * stored version is still the one it was loaded with; when one is not, the save writes nothing at all and returns
   * false, as for a stale user. When the save moves the account's `sessionEpoch` on, the sessions of the older epochs
   * are no longer read by any per-account read; the store removes them later (`SessionRepository.removeExpired`) or
   * in this commit, never one write per session from the caller. `cleared`: attempt limits emptied in the same
   * commit (a sign-in's success ends the run of failures it counted, atomically with it); when one of them has reached
   * its cap by its `at`, the save writes nothing and returns false: a right password is accepted only while fewer
   * failures are counted, decided in the commit, so exactly under concurrency.
   * A user whose address changed (`User.changeEmail`) moves its unique claim in the same commit: throws
   * EmailAlreadyRegistered, writing nothing, when another account holds the new address (including by a
   * simultaneous change or sign-up: exactly one wins).
   */
  save(user: User, events: readonly RecordedEvent[], opened?: Session, changed?: readonly Session[], cleared?: readonly LimitAt[]): Promise<boolean>;

  /**
   * Compare-and-swap, like save: erases the account if the stored one is still at `user.version`, and returns true;
   * false, erasing nothing, when another write got there first. One commit: the account and its view go, its address
   * is free for a new sign-up, its sessions end (the sweep removes them), every event of the account and any mail
   * still due for one of them go, and `events` (the pseudonymous SignUpCancelled) are appended.
   */
  erase(user: User, events: readonly RecordedEvent[]): Promise<boolean>;

  /** The ids of up to `limit` accounts whose address nobody proved, created before `cutoff`, oldest first. */
  unverifiedBefore(cutoff: Date, limit: number): Promise<string[]>;
}

export const USER_REPOSITORY = token<UserRepository>('UserRepository');
