import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { Table } from './store.js';

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
