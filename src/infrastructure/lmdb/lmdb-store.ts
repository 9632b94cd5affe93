import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, type RootDatabase, open } from 'lmdb';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { ServiceUnavailable } from '../../application/errors.js';
import { type OutboxEntry, dueAtOf } from '../storage/outbox-entry.js';
import { type ProjectionTables, applyProjections } from '../storage/projections.js';
import { STORE_RETRY_AFTER_SECONDS, WriteFailures, isStoreWriteFailure, realCause } from './lmdb-write-failures.js';

export interface StoredEvent extends Omit<RecordedEvent, 'occurredAt'> {
  readonly seq: number;
  readonly occurredAt: number;
}

type SeqKey = [string, number];

/** The layout of the outbox's due index; an environment written before it had one is indexed when opened. */
const OUTBOX_INDEX_VERSION = 1;

/**
 * One LMDB environment holding the storage primitive's tables (LmdbTables), the outbox and the event log, so that a
 * commit's records and its events are one write transaction. Commits are flushed to disk before a write resolves (overlappingSync off):
 * an acknowledged write survives a crash of the process or of the machine.
 */
export class LmdbStore {
  readonly events: Database<StoredEvent, number>;
  readonly eventSeqById: Database<number, string>;
  readonly eventsByEmail: Database<null, SeqKey>;
  readonly eventsByAggregate: Database<null, SeqKey>;
  /** Mails not yet sent, keyed by their event's sequence number (so claimed in append order). */
  readonly outbox: Database<OutboxEntry, number>;
  /** Every outbox entry but the dead letters, by when it may next be claimed: [dueAt, seq] (see dueAtOf). */
  readonly outboxDue: Database<null, [number, number]>;
  private readonly meta: Database<number, string>;
  private readonly projections: ProjectionTables<void>;
  /** Failed commits, for readiness. */
  readonly writeFailures = new WriteFailures();

  constructor(
    readonly root: RootDatabase,
    readonly dataDir = '.',
    /** Readiness fails while the filesystem of `dataDir` has less free space than this (0: never). */
    readonly minFreeBytes = 0,
  ) {
    this.events = root.openDB<StoredEvent, number>({ name: 'events' });
    this.eventSeqById = root.openDB<number, string>({ name: 'events-by-id' });
    this.eventsByEmail = root.openDB<null, SeqKey>({ name: 'events-by-email' });
    this.eventsByAggregate = root.openDB<null, SeqKey>({ name: 'events-by-aggregate' });
    this.outbox = root.openDB<OutboxEntry, number>({ name: 'outbox' });
    this.outboxDue = root.openDB<null, [number, number]>({ name: 'outbox-due' });
    this.meta = root.openDB<number, string>({ name: 'meta' });
    this.projections = {
      outbox: {
        insert: (eventId, row) => this.putOutboxEntryInTransaction(this.seqOf(eventId), row),
        update: (eventId, next) => {
          const seq = this.seqOf(eventId);
          const previous = this.outbox.get(seq);
          this.putOutboxEntryInTransaction(seq, next(previous), previous);
        },
        remove: (eventId) => this.removeOutboxEntryInTransaction(this.seqOf(eventId)),
      },
    };
  }

  static open(dataDir: string, minFreeBytes = 0): LmdbStore {
    mkdirSync(dataDir, { recursive: true });
    return new LmdbStore(open({ path: join(dataDir, 'accounts.lmdb'), maxDbs: 64, overlappingSync: false }), dataDir, minFreeBytes);
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

  /**
   * Writes an outbox entry and its due-index key inside the current write transaction; `previous`, the state it
   * replaces, has its key removed first. A dead letter has no key: no claim ever reads it.
   */
  putOutboxEntryInTransaction(seq: number, entry: OutboxEntry, previous?: OutboxEntry): void {
    const before = previous && dueAtOf(previous);
    if (before !== undefined && before !== null) void this.outboxDue.remove([before, seq]);
    void this.outbox.put(seq, entry);
    const due = dueAtOf(entry);
    if (due !== null) void this.outboxDue.put([due, seq], null);
  }

  /** Deletes an outbox entry and its due-index key inside the current write transaction; none is harmless. */
  removeOutboxEntryInTransaction(seq: number): void {
    const entry = this.outbox.get(seq);
    if (!entry) return;
    const due = dueAtOf(entry);
    if (due !== null) void this.outboxDue.remove([due, seq]);
    void this.outbox.remove(seq);
  }

  /** Builds the outbox's due index, in one write transaction, when the environment was written without it. Idempotent. */
  async migrateOutboxIndex(): Promise<void> {
    if (this.meta.get('outbox-index-version') === OUTBOX_INDEX_VERSION) return;
    await this.transaction(() => {
      if (this.meta.get('outbox-index-version') === OUTBOX_INDEX_VERSION) return;
      for (const key of [...this.outboxDue.getKeys()]) void this.outboxDue.remove(key);
      for (const { key, value } of this.outbox.getRange()) {
        const due = dueAtOf(value);
        if (due !== null) void this.outboxDue.put([due, key], null);
      }
      void this.meta.put('outbox-index-version', OUTBOX_INDEX_VERSION);
    });
  }

  /**
   * Appends events inside the current write transaction (an eventId already stored is skipped) and applies every
   * projection to each new one in the same transaction.
   */
  appendEventsInTransaction(events: readonly RecordedEvent[]): void {
    let seq = this.meta.get('event-seq') ?? 0;
    for (const event of events) {
      if (this.eventSeqById.doesExist(event.eventId)) continue;
      seq += 1;
      void this.events.put(seq, { ...event, seq, occurredAt: event.occurredAt.getTime() });
      void this.eventSeqById.put(event.eventId, seq);
      void this.eventsByEmail.put([event.payload.email, seq], null);
      if (event.aggregateId !== null) void this.eventsByAggregate.put([event.aggregateId, seq], null);
      applyProjections(event, this.projections);
    }
    void this.meta.put('event-seq', seq);
  }

  /** The sequence number of a stored event (the outbox's key); throws for an event not in the log. */
  private seqOf(eventId: string): number {
    const seq = this.eventSeqById.get(eventId);
    if (seq === undefined) throw new Error(`event ${eventId} is not in the log`);
    return seq;
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

export const toRecordedEvent = (stored: StoredEvent): RecordedEvent => {
  const { seq: _seq, occurredAt, ...event } = stored;
  return { ...event, occurredAt: new Date(occurredAt) } as RecordedEvent;
};
