import { token } from '../di-token.js';
import type { PageRequest } from './event-log.port.js';
import type { UserView } from './user-read-model.port.js';

/** One signed-in device as its owner sees it: never a token or a hash. */
export interface SessionView {
  readonly id: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date;
  readonly expiresAt: Date;
  readonly clientIp: string | null;
  readonly userAgent: string | null;
}

export interface SessionViewPage {
  readonly sessions: readonly SessionView[];
  /** Opaque; pass it back for the next (older) page. Null when there is nothing older. */
  readonly nextCursor: string | null;
}

/** The query side's view of sessions. */
export interface SessionReadModel {
  /**
   * One page of the user's live sessions, newest first, at most `limit` (a page may hold fewer, even none, while
   * `nextCursor` is set: sessions past a deadline and not yet swept are left out). Bounded work whatever the account
   * holds. An unknown user gives an empty page. Throws `InvalidCursor` for a cursor it did not issue. Read-only.
   */
  page(userId: string, now: Date, page: PageRequest): Promise<SessionViewPage>;
  /** The user's live sessions (not revoked, not past a deadline at `now`), newest first; [] when none. Read-only. */
  live(userId: string, now: Date): Promise<SessionView[]>;
  /**
   * When the session with this id belongs to this user and is live at `now` (not revoked, not past a deadline, of the
   * account's current session epoch): the account's public view, read with it (so a bearer request reads the account
   * once, and a query about the caller reads it no more); null otherwise, and for an unknown id. Read-only and
   * idempotent; never throws for an unknown id.
   */
  liveSessionAccount(sessionId: string, userId: string, now: Date): Promise<UserView | null>;
}

export const SESSION_READ_MODEL = token<SessionReadModel>('SessionReadModel');
