import type { ApiKeyRepository } from '../../application/api-keys/ports/api-key-repository.port.js';
import type { CapabilityRecordedEvent } from '../../application/ports/event-log.port.js';
import type { ApiKey, ApiKeyEvent } from '../../domain/api-keys/api-key.js';
import { API_KEY_EVENTS } from './api-key-events.js';
import { API_KEYS } from './api-key-tables.js';
import { appendedAs } from '../storage/event-tables.js';
import { type Store, put } from '../storage/store.js';

const ALL = 10_000;

/** API keys over the storage primitive, the same for every store: a key is put once, then revoked by compare-and-swap. */
export class StoreApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly store: Store) {}

  async add(key: ApiKey, events: readonly CapabilityRecordedEvent<ApiKeyEvent>[]): Promise<void> {
    const outcome = await this.store.commit({ changes: [put(API_KEYS, key.id, key, null)], events: appendedAs(events, API_KEY_EVENTS) });
    if (outcome.status !== 'committed') throw new Error(`API key ${key.id} was not stored (${outcome.status})`);
  }

  async findById(id: string): Promise<ApiKey | null> {
    return (await this.store.get(API_KEYS, id))?.value ?? null;
  }

  async list(): Promise<ApiKey[]> {
    return (await this.store.range(API_KEYS, 'byCreation', { prefix: [], limit: ALL })).map((stored) => stored.value);
  }

  async revoke(id: string, at: Date, events: readonly CapabilityRecordedEvent<ApiKeyEvent>[]): Promise<boolean> {
    const stored = await this.store.get(API_KEYS, id);
    if (!stored || stored.value.revokedAt !== null) return false;
    const outcome = await this.store.commit({ changes: [put(API_KEYS, id, { ...stored.value, revokedAt: at }, stored.version)], events: appendedAs(events, API_KEY_EVENTS) });
    return outcome.status === 'committed';
  }
}
