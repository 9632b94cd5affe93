import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { OUTBOX, type OutboxRecord } from './event-tables.js';
import { needsMail, newEntry } from './outbox-entry.js';
import type { AnyTable, Table } from './store.js';

/** How one appended event changes one record of a table: `next` makes the new record from the current one (null: none). */
export interface ProjectedChange<R> {
  readonly key: string;
  readonly next: (current: R | null) => R | null;
}

/** A record kept beside the event log, derived from the events and written in the same commit as they are. */
export interface EventProjection<R> {
  readonly table: Table<R>;
  /** The record `event` changes, and how; null when it changes none. Pure. `seq`: the event's place in the log. */
  changeOf(event: RecordedEvent, seq: string): ProjectedChange<R> | null;
}

const outbox: EventProjection<OutboxRecord> = {
  table: OUTBOX,
  changeOf: (event, seq) => (needsMail(event) ? { key: event.eventId, next: (current) => current ?? { ...newEntry(event.eventId), seq } } : null),
};

/**
 * Every event projection: each commit applies all of them to each event it appends, in the same transaction, on
 * every store (commit-plan.ts). A new projection is its table and an entry here.
 */
export const PROJECTIONS: readonly EventProjection<unknown>[] = [outbox as EventProjection<unknown>];

/** The records the projections of `event` read, for the commit's read set. */
export const projectedRefs = (event: RecordedEvent): { table: AnyTable; key: string }[] =>
  PROJECTIONS.flatMap((projection) => {
    const change = projection.changeOf(event, '');
    return change ? [{ table: projection.table, key: change.key }] : [];
  });
