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

/** Whether an account has a confirmed second factor, and how many recovery codes it has left: never a secret or a code. */
export interface MfaStatus {
  readonly enrolled: boolean;
  readonly recoveryCodesLeft: number;
}

/** The query side's view of accounts; a projection may replace it without touching the commands. */
export interface UserReadModel {
  /**
   * Returns the public resource of the user with this id, or null when there is none. Reads only the public
   * fields (never the password hash). Read-only and idempotent; never throws for an unknown id.
   */
  findById(id: string): Promise<UserView | null>;
  /** The account's second-factor status (not enrolled, 0 codes, for an unknown id or a pending enrolment). Read-only. */
  secondFactorOf(id: string): Promise<MfaStatus>;
}

export const USER_READ_MODEL = token<UserReadModel>('UserReadModel');
