import { Passkey, type PasskeySnapshot, type WebAuthnChallenge } from '../../domain/passkey.js';
import type { Stored, Table } from './store.js';

/** A passkey as stored: its snapshot without the version. */
export type PasskeyRecord = Omit<PasskeySnapshot, 'version'>;

/**
 * The passkeys, by credential id: the key itself makes an id unique across every account (a new one is put only
 * where none is). Per account by creation, for the owner's list.
 */
export const PASSKEYS: Table<PasskeyRecord> = {
  name: 'passkeys',
  indexes: { byUser: (record) => [record.userId, record.createdAt.getTime()] },
};

/**
 * How many passkeys each account holds, by account id: written in every commit that adds or removes one, so that the
 * per-account cap is decided in the commit. An account whose passkeys were stored before it existed has none until
 * its next add or removal, which counts its `byUser` index instead.
 */
export const PASSKEY_COUNTS: Table<{ readonly count: number }> = { name: 'passkey-counts', indexes: {} };

/** WebAuthn ceremonies in progress, by challenge: single-use, swept once expired. */
export type WebAuthnChallengeRecord = Omit<WebAuthnChallenge, 'version'>;
export const WEBAUTHN_CHALLENGES: Table<WebAuthnChallengeRecord> = { name: 'webauthn-challenges', indexes: {}, expiresAt: (record) => record.expiresAt.getTime() };

export const passkeyRecordOf = (passkey: Passkey): PasskeyRecord => {
  const { version: _version, ...record } = passkey.snapshot();
  return record;
};

export const passkeyOf = ({ value, version }: Stored<PasskeyRecord>): Passkey => Passkey.restore({ ...value, version });
