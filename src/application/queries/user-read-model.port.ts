import type { UserView } from '../commands/auth-result.js';
import { token } from '../ports/token.js';

/** The query side's view of accounts; a projection may replace it without touching the commands. */
export interface UserReadModel {
  /** Returns the public resource of the user with this id, or null when there is none. Read-only; never throws for an unknown id. */
  findById(id: string): Promise<UserView | null>;
}

export const USER_READ_MODEL = token<UserReadModel>('UserReadModel');
