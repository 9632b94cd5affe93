import { TotpFactor, type TotpFactorSnapshot } from '../../domain/second-factor.js';
import type { Stored, Table } from './store.js';

/** A TOTP factor as stored: its snapshot without the version (the store keeps it beside), the secret sealed. */
export type TotpFactorRecord = Omit<TotpFactorSnapshot, 'version'>;

/** The TOTP factors, by account id (one each); read by key only. */
export const TOTP_FACTORS: Table<TotpFactorRecord> = { name: 'totp-factors', indexes: {} };

export const totpFactorRecordOf = (factor: TotpFactor): TotpFactorRecord => {
  const { version: _version, ...record } = factor.snapshot();
  return record;
};

export const totpFactorOf = ({ value, version }: Stored<TotpFactorRecord>): TotpFactor => TotpFactor.restore({ ...value, version });
