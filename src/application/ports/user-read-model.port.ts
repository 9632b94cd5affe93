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

/** An account's records by kind (`passkeys`, `totp-factors`, ...), each as its kind shows it. */
export type AccountRecords = Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>;

/** One way into the account as its one list shows it (never a secret), and whether it signs in on its own. */
export interface CredentialView {
  /** `password`, `totp`, `passkey`, `identity`: one word per kind, as its table's declaration (`listed`) names it. */
  readonly kind: string;
  /** Its id among the account's records of its kind (the kind itself for one of a kind: `password`, `totp`). */
  readonly id: string;
  /** A passkey's name, an identity's provider; null when nothing names it. */
  readonly name: string | null;
  readonly createdAt: Date | null;
  readonly lastUsedAt: Date | null;
  /** A first factor (a password, a passkey, a provider identity): the last-way-in rule counts it; a second factor does not. */
  readonly signsIn: boolean;
}

/** What a command that continues a session reads of its account: the public resource and the session epoch, no secret. */
export interface SessionAccount {
  readonly user: UserView;
  /** Whether an operator disabled the account (the admin API): no session opens. */
  readonly disabled: boolean;
  /** The account's session epoch: a session of an older one ended with the others (`User.endSessions`). */
  readonly sessionEpoch: number;
}

/** The query side's view of accounts; a projection may replace it without touching the commands. */
export interface UserReadModel {
  /**
   * Returns the public resource of the user with this id, or null when there is none. Reads only the public
   * fields (never the password hash). Read-only and idempotent; never throws for an unknown id.
   */
  findById(id: string): Promise<UserView | null>;
  /**
   * The public resource of the account with this id and its session epoch, from one record (never the password hash,
   * never the aggregate), or null when there is none. Read-only; never throws for an unknown id.
   */
  sessionAccountOf(id: string): Promise<SessionAccount | null>;
  /**
   * What the stores hold of the account beyond its resource, sessions and activity (its credentials: the factor's
   * dates and codes left, its passkeys), by kind, as each kind's declaration shows it: never a secret, a key or a MAC.
   * Every kind that shows records is present (an empty list when the account has none). Read-only.
   */
  recordsOf(id: string): Promise<AccountRecords>;
  /**
   * Every way into the account, of every kind whose table declares how it is listed (`listed`), in the order of the
   * tables, then of each table's records: the same declarations the last-way-in rule and the erase read. Read-only;
   * empty for an unknown id.
   */
  credentialsOf(id: string): Promise<readonly CredentialView[]>;
  /**
   * The accounts' ids in the order they were listed (oldest first), after the entry at `after` (an entry's `position`;
   * null: from the start), at most `limit`. Fewer than `limit`: the last ones. A position this adapter did not give
   * reads as a place in that order. Read-only.
   */
  directory(after: string | null, limit: number): Promise<readonly { readonly id: string; readonly position: string }[]>;
  /**
   * The accounts that may have an address starting with `query` (trimmed, any case; not empty), in the order they were
   * listed, after `after` (a position this method gave; null: from the start), at most `limit`, found without opening
   * any account: every account whose address does start with it is among them, and others sharing a shorter prefix
   * may be (compare each account's address). Fewer than `limit`: the last ones. Read-only but for the index's upkeep.
   */
  addressCandidates(query: string, after: string | null, limit: number): Promise<readonly { readonly id: string; readonly position: string }[]>;
}

export const USER_READ_MODEL = token<UserReadModel>('UserReadModel');
