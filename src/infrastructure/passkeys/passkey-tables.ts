import { Passkey, type PasskeySnapshot, type WebAuthnChallenge } from '../../domain/passkeys/passkey.js';
import type { Stored, Table } from '../storage/store.js';

/** A passkey as stored: its snapshot without the version. */
export type PasskeyRecord = Omit<PasskeySnapshot, 'version'>;

/**
 * The passkeys, by credential id: the key itself makes an id unique across every account (a new one is put only
 * where none is). Per account by creation, for the owner's list, counted per account, so that the per-account cap is
 * decided in the commit that adds one (a bound on that range).
 */
export const PASSKEYS: Table<PasskeyRecord> = {
  name: 'passkeys',
  indexes: { byUser: (record) => [record.userId, record.createdAt.getTime()] },
  counted: { byUser: 1 },
  owner: {
    account: { index: 'byUser' },
    credential: true,
    signsIn: 'each',
    listed: ({ id, name, createdAt, lastUsedAt }) => ({ kind: 'passkey', id, name, createdAt, lastUsedAt }),
    exported: ({ id, name, createdAt, lastUsedAt, transports, backedUp, deviceType }) => ({ id, name, createdAt, lastUsedAt, transports, backedUp, deviceType }),
  },
  // The owner's own label ("Ada's phone") may name the person.
  personal: { account: (passkey) => passkey.userId, fields: ['name'] },
};

/** WebAuthn ceremonies in progress, by challenge: single-use, swept once expired. */
export type WebAuthnChallengeRecord = Omit<WebAuthnChallenge, 'version'>;
export const WEBAUTHN_CHALLENGES: Table<WebAuthnChallengeRecord> = {
  name: 'webauthn-challenges',
  // Per account: those issued to one (a registration, a step-up); a sign-in's, issued to nobody, are in no index.
  indexes: { byUser: (record) => (record.userId === null ? null : [record.userId]) },
  expiresAt: (record) => record.expiresAt.getTime(),
  owner: { account: { index: 'byUser' }, credential: false, exported: { not: 'a ceremony in progress (minutes long)' } },
};

export const passkeyRecordOf = (passkey: Passkey): PasskeyRecord => {
  const { version: _version, ...record } = passkey.snapshot();
  return record;
};

export const passkeyOf = ({ value, version }: Stored<PasskeyRecord>): Passkey => Passkey.restore({ ...value, version });
