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
}

export const SESSION_READ_MODEL = token<SessionReadModel>('SessionReadModel');
