import { token } from '../di-token.js';

/** One signed-in device as its owner sees it: never a token or a hash. */
export interface SessionView {
  readonly id: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date;
  readonly expiresAt: Date;
  readonly clientIp: string | null;
  readonly userAgent: string | null;
}

/** The query side's view of sessions. */
export interface SessionReadModel {
  /** The user's live sessions (not revoked, not past a deadline at `now`), newest first; [] when none. Read-only. */
  live(userId: string, now: Date): Promise<SessionView[]>;
  /**
   * Whether the session with this id belongs to this user and is live at `now` (not revoked, not past a deadline);
   * false for an unknown id. Read-only and idempotent; never throws for an unknown id.
   */
  isLive(sessionId: string, userId: string, now: Date): Promise<boolean>;
}

export const SESSION_READ_MODEL = token<SessionReadModel>('SessionReadModel');
