import type { ApiKey } from '../../domain/api-keys/api-key.js';
import type { Table } from '../storage/store.js';

/** An API key as stored: its keyed hash, never the key. */
export type ApiKeyRecord = Omit<ApiKey, 'createdAt' | 'revokedAt'> & { readonly createdAt: Date; readonly revokedAt: Date | null };

/** The API keys, by id, listed oldest first. Operators' and services' credentials: no account's, none erased with one. */
export const API_KEYS: Table<ApiKeyRecord> = {
  name: 'api-keys',
  indexes: { byCreation: (key) => [key.createdAt.getTime()] },
  owner: { none: "API keys: an operator's or a service's credentials (made and revoked by `npm run admin`), no account's" },
};
