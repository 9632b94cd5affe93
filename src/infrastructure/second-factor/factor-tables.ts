import { type MfaChallenge, TotpFactor, type TotpFactorSnapshot } from '../../domain/second-factor/second-factor.js';
import type { Stored, Table } from '../storage/store.js';

/** A TOTP factor as stored: its snapshot without the version (the store keeps it beside), the secret sealed. */
export type TotpFactorRecord = Omit<TotpFactorSnapshot, 'version'>;

/** The TOTP factors, by account id (one each), with their recovery codes; read by key only. A way in: a credential. */
export const TOTP_FACTORS: Table<TotpFactorRecord> = {
  name: 'totp-factors',
  indexes: {},
  owner: {
    account: 'key',
    credential: true,
    // Never the secret, nor the recovery codes' MACs: when it was added and confirmed, and how many codes are left.
    // Listed once confirmed: an enrolment waiting for its first code is no way in yet.
    listed: ({ confirmedAt }) => (confirmedAt === null ? null : { kind: 'totp', id: 'totp', name: null, createdAt: confirmedAt, lastUsedAt: null }),
    exported: ({ createdAt, confirmedAt, recoveryCodes }) => ({ kind: 'totp', createdAt, confirmedAt, recoveryCodesLeft: recoveryCodes.filter((code) => code.usedAt === null).length }),
  },
};

export const totpFactorRecordOf = (factor: TotpFactor): TotpFactorRecord => {
  const { version: _version, ...record } = factor.snapshot();
  return record;
};

export const totpFactorOf = ({ value, version }: Stored<TotpFactorRecord>): TotpFactor => TotpFactor.restore({ ...value, version });

/** A sign-in challenge as stored: under the keyed MAC of its token (never the token), without its version. */
export type MfaChallengeRecord = Omit<MfaChallenge, 'version'>;

/** The sign-in challenges, by the MAC of their token; per account (what the erase finds), swept once expired. */
export const MFA_CHALLENGES: Table<MfaChallengeRecord> = {
  name: 'mfa-challenges',
  indexes: { byUser: (record) => [record.userId] },
  expiresAt: (record) => record.expiresAt.getTime(),
  owner: { account: { index: 'byUser' }, credential: false, exported: { not: 'a sign-in in progress (minutes long), whose token is a secret' } },
};

export const challengeRecordOf = ({ version: _version, ...record }: MfaChallenge): MfaChallengeRecord => record;

export const challengeOf = ({ value, version }: Stored<MfaChallengeRecord>): MfaChallenge => ({ ...value, version });
