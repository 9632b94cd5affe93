import { token } from '../di-token.js';

/** The public user resource as the query side shows it: nothing secret, and never read together with a secret. */
export interface UserView {
  readonly id: string;
  readonly name: string;
  readonly lastname: string;
  readonly email: string;
  /** True once the owner followed the verification link. */
  readonly emailverified: boolean;
}

/** The query side's view of accounts; a projection may replace it without touching the commands. */
export interface UserReadModel {
  /**
   * Returns the public resource of the user with this id, or null when there is none. Reads only the public
   * fields (never the password hash). Read-only and idempotent; never throws for an unknown id.
   */
  findById(id: string): Promise<UserView | null>;
}

export const USER_READ_MODEL = token<UserReadModel>('UserReadModel');
