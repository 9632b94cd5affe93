import type { PageRequest } from './event-log.port.js';
import { token } from '../di-token.js';

/** One security-relevant thing that happened to an account, as its owner may see it. */
/** A page of activity: how many entries when none is asked, and at most. */
export const ACTIVITY_PAGE_DEFAULT = 20;
export const ACTIVITY_PAGE_MAX = 100;

export interface ActivityEntry {
  /** snake_case name of the event: `user_registered`, `user_signed_in`, `sign_in_failed`, `password_rehashed`. */
  readonly type: string;
  readonly occurredAt: Date;
  readonly clientIp: string | null;
  readonly userAgent: string | null;
  /** Why it failed (e.g. `wrong_password`); only on failures. */
  readonly reason?: string;
  /** Present when an operator did it (the admin API, the command line); its address and agent are then null. */
  readonly by?: 'administrator';
  /**
   * Who, then: `key:<id>` (an API key), `operator:<account id>` (an operator's own access token) or `cli` (the command
   * line). For operators only (GET /admin/users/:id/activity): the account's owner reads `by` alone.
   */
  readonly actor?: string;
}

export interface ActivityPage {
  readonly entries: readonly ActivityEntry[];
  /** Opaque; pass it back for the next (older) page. Null when there is nothing older. */
  readonly nextCursor: string | null;
}

/** The query side's view of an account's activity; a projection may replace it without touching the commands. */
export interface ActivityReadModel {
  /**
   * One page of the account's activity, newest first, at most `limit` entries (a page may hold fewer even when
   * `nextCursor` is set). An unknown user gives an empty page. Throws `InvalidCursor` for a cursor it did not issue.
   * Read-only and idempotent.
   */
  page(userId: string, page: PageRequest): Promise<ActivityPage>;
}

export const ACTIVITY_READ_MODEL = token<ActivityReadModel>('ActivityReadModel');
