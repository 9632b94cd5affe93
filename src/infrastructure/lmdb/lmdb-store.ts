import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, type RootDatabase, open } from 'lmdb';
import { ServiceUnavailable } from '../../application/errors.js';
import { STORE_RETRY_AFTER_SECONDS, WriteFailures, isStoreWriteFailure, realCause } from './lmdb-write-failures.js';

/**
 * One LMDB environment holding every table of the storage primitive (LmdbTables), so that a commit's records and its
 * events are one write transaction. Commits are flushed to disk before a write resolves (overlappingSync off): an
 * acknowledged write survives a crash of the process or of the machine.
 */
export class LmdbStore {
  private readonly meta: Database<number, string>;
  readonly writeFailures = new WriteFailures(); // failed commits, for readiness

  constructor(
    readonly root: RootDatabase,
    readonly dataDir = '.',
    /** Readiness fails while the filesystem of `dataDir` has less free space than this (0: never). */
    readonly minFreeBytes = 0,
  ) {
    this.meta = root.openDB<number, string>({ name: 'meta' });
  }

  static readonly MAX_DATABASES = 256; // named databases: one per table, index and expiry index (a test keeps them under half)
  static open(dataDir: string, minFreeBytes = 0): LmdbStore {
    mkdirSync(dataDir, { recursive: true });
    return new LmdbStore(open({ path: join(dataDir, 'accounts.lmdb'), maxDbs: LmdbStore.MAX_DATABASES, overlappingSync: false }), dataDir, minFreeBytes);
  }

  /**
   * Runs `work` inside one write transaction; resolves once it is committed and flushed. A commit the disk refuses
   * (ENOSPC, EIO, map full) rejects with `ServiceUnavailable('store_unavailable')` carrying the real cause; nothing
   * of the transaction is written. Errors thrown by `work` itself pass through unchanged.
   */
  async transaction<T>(work: () => T): Promise<T> {
    try {
      return await this.root.transaction(work);
    } catch (error) {
      if (!isStoreWriteFailure(error)) throw error;
      const cause = await realCause(error as Error);
      this.writeFailures.record(cause);
      throw new ServiceUnavailable('store_unavailable', STORE_RETRY_AFTER_SECONDS, cause);
    }
  }

  /** Bytes used on disk by the environment's data file; null when it cannot be read. */
  sizeBytes(): number | null {
    try {
      return statSync(join(this.dataDir, 'accounts.lmdb')).blocks * 512;
    } catch {
      return null;
    }
  }

  /** Commits a write of the last health-check time; rejects when the store cannot write. */
  async touch(): Promise<void> {
    await this.transaction(() => void this.meta.put('health-checked-at', Date.now()));
  }

  close(): Promise<void> {
    return this.root.close();
  }
}
