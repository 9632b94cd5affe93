import { InvalidToken } from '../../errors.js';
import { ACTIVITY_PAGE_DEFAULT, ACTIVITY_PAGE_MAX, type ActivityPage } from '../../ports/activity-read-model.port.js';
import type { Ports } from '../../ports/ports.js';

export { ACTIVITY_PAGE_DEFAULT, ACTIVITY_PAGE_MAX };

export interface GetAccountActivityQuery {
  /** The subject of a verified access token. */
  readonly userId: string;
  /** From 1 to ACTIVITY_PAGE_MAX (the edge checks it); defaults to ACTIVITY_PAGE_DEFAULT, larger values are capped. */
  readonly limit?: number | undefined;
  /** The `nextCursor` of the previous page; absent or null for the newest entries. */
  readonly cursor?: string | null | undefined;
}

/** Reads one page of an account's own security activity, newest first. Writes nothing. */
export class GetAccountActivityHandler {
  constructor(private readonly deps: Pick<Ports, 'userViews' | 'activity'>) {}

  /** Throws InvalidToken when the subject no longer exists, InvalidCursor for a cursor the store did not issue. */
  async execute(query: GetAccountActivityQuery): Promise<ActivityPage> {
    const limit = Math.min(Math.max(1, Math.trunc(query.limit ?? ACTIVITY_PAGE_DEFAULT)), ACTIVITY_PAGE_MAX);
    if (!(await this.deps.userViews.findById(query.userId))) throw new InvalidToken();
    return this.deps.activity.page(query.userId, { limit, cursor: query.cursor ?? null });
  }
}
