import type { Session } from '../../domain/session.js';
import { token } from '../di-token.js';
import type { PageRequest, RecordedEvent } from './event-log.port.js';

export interface SessionPage {
  readonly sessions: Session[];
  /** Opaque; pass it back for the next (older) page. Null when there is nothing older. */
  readonly nextCursor: string | null;
}

/** Where sessions live: one record per session (no token in it), written together with its events. */
export interface SessionRepository {
  /** Stores a new session with its events, in one transaction. Throws if the id exists (ids are random UUIDs). */
  add(session: Session, events: readonly RecordedEvent[]): Promise<void>;

  /** Returns the session with this id, or null when there is none (never stored, or swept after it ended). */
  findById(id: string): Promise<Session | null>;

  /**
   * The user's sessions of the account's session epoch `epoch` (`User.sessionEpoch`) that are not revoked (past a
   * deadline but not yet swept included), in no particular order; [] when none. Reads those only: revoked sessions,
   * and those of older epochs (ended all at once), cost nothing here, however many the account had.
   */
  findByUser(userId: string, epoch: number): Promise<Session[]>;

  /**
   * One page of the user's sessions of epoch `epoch` that are not revoked (past a deadline but not yet swept included), newest first
   * (`createdAt`, then id, descending), at most `limit`; `nextCursor` (opaque) while older ones exist, else null. An
   * unknown user gives an empty page. Reads at most `limit + 1` of them, whatever the account holds. Throws
   * `InvalidCursor` for a cursor this adapter did not issue. Read-only.
   */
  findPageByUser(userId: string, epoch: number, page: PageRequest): Promise<SessionPage>;

  /**
   * The user's sessions of epoch `epoch` that are not revoked beyond its `keep` most recently used ones (by `lastUsedAt`, then id),
   * least recently used first, at most `max`; [] when it has `keep` or fewer (or none). What a sign-in over the
   * per-account cap ends. Counts the sessions on an index and reads at most `max` of them. Read-only.
   */
  leastRecentlyUsed(userId: string, epoch: number, keep: number, max: number): Promise<Session[]>;

  /**
   * Compare-and-swap: stores the session's new state and its events only if the stored version is still the one it
   * was loaded with, and returns true; returns false, writing nothing, when another writer got there first (reload
   * and decide again). Atomic in every adapter.
   */
  save(session: Session, events: readonly RecordedEvent[]): Promise<boolean>;

  /**
   * Compare-and-swap of many sessions in one write (one transaction): stores every session's new state and the events
   * only if each stored version is still the one it was loaded with, and returns true; returns false, writing none of
   * them and no event, when any one changed meanwhile (reload and decide again). An empty list writes nothing and is
   * true. Atomic in every adapter; its cost is one commit, not one per session.
   */
  saveMany(sessions: readonly Session[], events: readonly RecordedEvent[]): Promise<boolean>;

  /**
   * Deletes at most `limit` sessions that ended at or before `now` (past `expiresAt`, or revoked: at the earlier of
   * `revokedAt` and `expiresAt`), those that ended first first, and sessions of an epoch older than their account's
   * (ended all at once: see `UserRepository.save`), and returns how many. Idempotent; a session refreshed meanwhile
   * (a later `expiresAt`) is kept.
   */
  removeExpired(now: Date, limit: number): Promise<number>;
}

export const SESSION_REPOSITORY = token<SessionRepository>('SessionRepository');
