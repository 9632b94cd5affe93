import { InvalidToken } from '../../errors.js';
import type { ActivityEntry } from '../../ports/activity-read-model.port.js';
import type { Ports } from '../../ports/ports.js';
import type { SessionView } from '../../ports/session-read-model.port.js';
import type { AccountRecords, UserView } from '../../ports/user-read-model.port.js';

/** The most activity entries one export holds (newest first); `activityTruncated` says when older ones exist. */
export const EXPORT_ACTIVITY_MAX = 1000;
const PAGE = 100;

export interface ExportAccountQuery {
  /** The subject of a verified access token. */
  readonly userId: string;
}

/** Everything the service shows its owner about an account, in one document: never a secret. */
export interface AccountExport {
  readonly exportedAt: Date;
  readonly user: UserView;
  readonly sessions: readonly SessionView[];
  readonly activity: readonly ActivityEntry[];
  readonly activityTruncated: boolean;
  /** The rest the stores hold of the account (its credentials), by kind, as each kind's declaration shows it. */
  readonly records: AccountRecords;
}

/**
 * Reads the account, its live sessions, its retained activity and the rest of its records as their tables declare
 * (right of access, GDPR art. 15). Writes nothing.
 */
export class ExportAccountHandler {
  constructor(private readonly deps: Pick<Ports, 'userViews' | 'sessionViews' | 'activity' | 'clock'>) {}

  /** Throws InvalidToken when the subject no longer exists. */
  async execute(query: ExportAccountQuery): Promise<AccountExport> {
    const user = await this.deps.userViews.findById(query.userId);
    if (!user) throw new InvalidToken();
    const exportedAt = this.deps.clock.now();
    const sessions = await this.deps.sessionViews.live(query.userId, exportedAt);
    const activity: ActivityEntry[] = [];
    let cursor: string | null = null;
    do {
      const page = await this.deps.activity.page(query.userId, { limit: PAGE, cursor });
      activity.push(...page.entries);
      cursor = page.nextCursor;
    } while (cursor !== null && activity.length < EXPORT_ACTIVITY_MAX);
    const activityTruncated = cursor !== null || activity.length > EXPORT_ACTIVITY_MAX;
    const records = await this.deps.userViews.recordsOf(query.userId);
    return { exportedAt, user, sessions, activity: activity.slice(0, EXPORT_ACTIVITY_MAX), activityTruncated, records };
  }
}
