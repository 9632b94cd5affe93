import type { ApiKey } from '../../../domain/api-keys/api-key.js';
import { token } from '../../di-token.js';
import type { ApiKeyEvent } from '../../../domain/api-keys/api-key.js';
import type { CapabilityRecordedEvent } from '../../ports/event-log.port.js';

/** The API keys (operators' and services' credentials, no account's). */
export interface ApiKeyRepository {
  /** Stores a new key with its events, in one commit. */
  add(key: ApiKey, events: readonly CapabilityRecordedEvent<ApiKeyEvent>[]): Promise<void>;
  /** The key with this id, revoked or not; null when there is none. */
  findById(id: string): Promise<ApiKey | null>;
  /** Every key, oldest first, revoked ones included. */
  list(): Promise<ApiKey[]>;
  /** Revokes the key with its events in one commit; false when it is unknown or revoked already (nothing written). Idempotent. */
  revoke(id: string, at: Date, events: readonly CapabilityRecordedEvent<ApiKeyEvent>[]): Promise<boolean>;
}

export const API_KEY_REPOSITORY = token<ApiKeyRepository>('ApiKeyRepository');
