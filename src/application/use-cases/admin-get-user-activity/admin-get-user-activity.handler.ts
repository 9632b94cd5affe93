import { UserNotFound } from '../../errors.js';
import { ACTIVITY_PAGE_DEFAULT, ACTIVITY_PAGE_MAX, type ActivityEntry } from '../../ports/activity-read-model.port.js';
import type { Ports } from '../../ports/ports.js';

/** An entry as an operator reads it: what the account's owner reads, and who acted when an operator did. */
export interface AdminActivityEntry extends ActivityEntry {
  /** The operator's address now, when an operator's own access token did it (`actor` `operator:<account id>`). */
  readonly actorEmail?: string;
}

export interface AdminActivityPage {
  readonly entries: readonly AdminActivityEntry[];
  readonly nextCursor: string | null;
}

const OPERATOR = 'operator:';

/**
 * One page of an account's activity for an operator (GET /admin/users/:id/activity), newest first: the account's own
 * entries, each done by an operator naming who (the key, the command line, or the operator's account and its address
 * now). Writes nothing. Throws UserNotFound, and InvalidCursor for a cursor the store did not issue.
 */
export class AdminGetUserActivityHandler {
  constructor(private readonly deps: Pick<Ports, 'userViews' | 'activity'>) {}

  async execute(query: { readonly userId: string; readonly limit?: number | undefined; readonly cursor?: string | null | undefined }): Promise<AdminActivityPage> {
    const limit = Math.min(Math.max(1, Math.trunc(query.limit ?? ACTIVITY_PAGE_DEFAULT)), ACTIVITY_PAGE_MAX);
    if (!(await this.deps.userViews.findById(query.userId))) throw new UserNotFound();
    const page = await this.deps.activity.page(query.userId, { limit, cursor: query.cursor ?? null });
    const operators = [...new Set(page.entries.flatMap((entry) => (entry.actor?.startsWith(OPERATOR) ? [entry.actor.slice(OPERATOR.length)] : [])))];
    const addresses = new Map((await Promise.all(operators.map(async (id) => [id, (await this.deps.userViews.findById(id))?.email] as const))).filter((pair): pair is readonly [string, string] => pair[1] !== undefined));
    return {
      entries: page.entries.map((entry) => {
        const email = entry.actor?.startsWith(OPERATOR) ? addresses.get(entry.actor.slice(OPERATOR.length)) : undefined;
        return email === undefined ? entry : { ...entry, actorEmail: email };
      }),
      nextCursor: page.nextCursor,
    };
  }
}
