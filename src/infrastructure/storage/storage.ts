import type { EventLog } from '../../application/ports/event-log.port.js';
import type { Outbox } from '../../application/ports/outbox.port.js';
import type { SessionRepository } from '../../application/ports/session-repository.port.js';
import type { StoreHealth } from '../../application/ports/store-health.port.js';
import type { UserReadModel } from '../../application/ports/user-read-model.port.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import type { EventPruner } from './retention.js';

export interface StoreSizes {
  /** Bytes the store uses on disk; null when it cannot be read. */
  readonly sizeBytes: number | null;
  /** Bytes free on the filesystem beside it; null when it cannot be measured. */
  readonly freeBytes: number | null;
}

/**
 * One storage technology, opened: what each technology's `openStorage(config)` returns (memory/, lmdb/, mongo/).
 * The adapters of the storage ports share one store, so that a user, its session and its events commit together;
 * the optional capabilities are what only some stores have, asked for by presence rather than by store class.
 */
export interface Storage {
  readonly users: UserRepository;
  readonly userViews: UserReadModel;
  readonly events: EventLog;
  readonly sessions: SessionRepository;
  readonly outbox: Outbox;
  readonly health: StoreHealth;
  /** Removes old events as RETENTION says; absent where the store does it itself (MongoDB's TTL) or forgets anyway (memory). */
  readonly pruner?: EventPruner;
  /** The store's size and the free disk beside it, for the metrics; absent where there is no local file. */
  readonly sizes?: () => StoreSizes;
  /** Releases the store (handles, pools). Idempotent. */
  close(): Promise<void>;
}
