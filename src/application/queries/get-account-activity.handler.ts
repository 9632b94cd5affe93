import { inject, injectable } from 'inversify';
import { InvalidInput } from '../../domain/domain-error.js';
import { InvalidCursor } from '../ports/event-log.port.js';
import { InvalidToken } from '../ports/invalid-token.js';
import { ACTIVITY_READ_MODEL, type ActivityPage, type ActivityReadModel } from './activity-read-model.port.js';
import { USER_READ_MODEL, type UserReadModel } from './user-read-model.port.js';

export const ACTIVITY_PAGE_DEFAULT = 20;
export const ACTIVITY_PAGE_MAX = 100;
export const LIMIT_RULE = `must be an integer from 1 to ${ACTIVITY_PAGE_MAX}`;
export const CURSOR_RULE = 'is not a valid cursor';

export interface GetAccountActivityQuery {
  /** The subject of a verified access token. */
  readonly userId: string;
  /** Defaults to ACTIVITY_PAGE_DEFAULT. */
  readonly limit?: number | undefined;
  /** The `nextCursor` of the previous page; absent or null for the newest entries. */
  readonly cursor?: string | null | undefined;
}

/** Reads one page of an account's own security activity, newest first. Writes nothing. */
@injectable()
export class GetAccountActivityHandler {
  constructor(
    @inject(USER_READ_MODEL) private readonly users: UserReadModel,
    @inject(ACTIVITY_READ_MODEL) private readonly activity: ActivityReadModel,
  ) {}

  /** Throws InvalidToken when the subject no longer exists, InvalidInput for a bad limit or cursor. */
  async execute(query: GetAccountActivityQuery): Promise<ActivityPage> {
    const limit = query.limit ?? ACTIVITY_PAGE_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > ACTIVITY_PAGE_MAX) {
      throw new InvalidInput([{ field: 'limit', message: LIMIT_RULE }]);
    }
    if (!(await this.users.findById(query.userId))) throw new InvalidToken();
    try {
      return await this.activity.page(query.userId, { limit, cursor: query.cursor ?? null });
    } catch (error) {
      if (error instanceof InvalidCursor) throw new InvalidInput([{ field: 'cursor', message: CURSOR_RULE }]);
      throw error;
    }
  }
}
