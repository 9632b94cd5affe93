import { Session, type SessionSnapshot, endOf } from '../../domain/session.js';
import { User, type UserSnapshot } from '../../domain/user.js';
import type { Stored, Table } from './store.js';

/** An account as stored: its snapshot without the version, which the store keeps beside it. */
export type UserRecord = Omit<UserSnapshot, 'version'>;

/** A session as stored (no token, no hash of one): its snapshot without the version. */
export type SessionRecord = Omit<SessionSnapshot, 'version'>;

/** The accounts, by id; the e-mail is a unique claim (`email`), so of simultaneous sign-ups of one address one wins. */
export const USERS: Table<UserRecord> = {
  name: 'users',
  indexes: {},
  // Its password is a way in (an account made by a provider's sign-in has none: an empty hash).
  owner: {
    account: 'key',
    credential: false,
    signsIn: (user) => user.passwordHash !== '',
    listed: (user) => (user.passwordHash === '' ? null : { kind: 'password', id: 'password', name: null, createdAt: null, lastUsedAt: null }),
    exported: { not: 'shown as `user`: its public fields, never the password hash' },
  },
  personal: { account: (user) => user.id, fields: ['email', 'name', 'lastname'] },
};

/**
 * The query side's record of an account, written in the same commit as the account: what the public resource shows
 * and what authentication needs (its session epoch, its verified flag), and never the password hash.
 */
export interface AccountView {
  readonly name: string;
  readonly lastname: string;
  readonly email: string;
  readonly emailVerified: boolean;
  readonly sessionEpoch: number;
  /** Set while an operator has the account disabled (absent otherwise). */
  readonly disabled?: boolean;
}

/** The accounts as the query side reads them, by id. */
export const ACCOUNT_VIEWS: Table<AccountView> = {
  name: 'account-views',
  indexes: {},
  owner: { account: 'key', credential: false, exported: { not: 'shown as `user`' } },
  personal: { account: (_view, id) => id, fields: ['email', 'name', 'lastname'] },
};

export const accountViewOf = ({ name, lastname, email, emailVerified, sessionEpoch, disabled }: UserRecord): AccountView =>
  ({ name, lastname, email, emailVerified: emailVerified ?? false, sessionEpoch: sessionEpoch ?? 0, ...(disabled === true ? { disabled } : {}) });

/**
 * The accounts whose address nobody proved yet, by creation: written with the account, removed in the commit that
 * verifies or erases it; the unverified-account sweep reads the oldest.
 */
export const UNVERIFIED_ACCOUNTS: Table<{ readonly userId: string; readonly createdAt: number }> = {
  name: 'unverified-accounts',
  indexes: { byCreation: (account) => [account.createdAt] },
  owner: { account: 'key', credential: false, exported: { not: 'its one fact is `user.emailverified`' } },
};

/** The claim that makes an e-mail address one account's. */
export const EMAIL_CLAIM = 'email';

const liveKey = (session: SessionRecord, at: Date) => (session.revokedAt === null ? [session.userId, session.epoch ?? 0, at.getTime()] : null);

/**
 * The sessions, by id. Per account and session epoch, those not revoked by creation (listing, newest first) and by
 * last use (the per-account cap, least recently used first), so per-account reads never walk ended ones; the latter
 * counted per account and epoch, so the cap reads one count instead of walking them. A session expires when it ends
 * (its deadline, or its revocation): the sweep removes it then.
 */
export const SESSIONS: Table<SessionRecord> = {
  name: 'sessions',
  indexes: { liveByCreation: (s) => liveKey(s, s.createdAt), liveByUse: (s) => liveKey(s, s.lastUsedAt) },
  expiresAt: (s) => endOf(s).getTime(),
  counted: { liveByUse: 2 },
  owner: { account: 'epoch' },
  personal: { account: (session) => session.userId, fields: ['email', 'clientIp', 'userAgent'] },
};

/**
 * The accounts whose session epoch moved on while sessions of an older epoch may remain (they are no longer read by
 * any per-account read): the sweep removes those sessions and then the marker.
 */
export const ENDED_EPOCHS: Table<{ readonly userId: string; readonly epoch: number }> = {
  name: 'ended-epochs',
  indexes: { all: () => [] },
  owner: { account: 'marker', why: 'the session sweep reads it to remove the sessions of ended epochs, then removes it' },
};

export const userRecordOf = (user: User): UserRecord => {
  const { version: _version, ...record } = user.snapshot();
  return { ...record, emailVerified: record.emailVerified ?? false, sessionEpoch: record.sessionEpoch ?? 0 };
};

export const sessionRecordOf = (session: Session): SessionRecord => {
  const { version: _version, ...record } = session.snapshot();
  return record;
};

export const userOf = ({ value, version }: Stored<UserRecord>): User => User.restore({ ...value, version });
export const sessionOf = ({ value, version }: Stored<SessionRecord>): Session => Session.restore({ ...value, version });
