import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { type OutboxEntry, needsMail, newEntry } from './outbox-entry.js';

/** How one appended event changes one record of a projection. */
export type RecordChange<Row> =
  /** Creates the record; its key is new (made by this event), so nothing is read first. */
  | { readonly kind: 'insert'; readonly row: Row }
  /** Reads the record (undefined when there is none) and writes what `next` makes of it. */
  | { readonly kind: 'update'; readonly next: (current: Row | undefined) => Row }
  | { readonly kind: 'remove' };

/** A record kept beside the event log, derived from the events and written in the same transaction as they are. */
export interface EventProjection<Row> {
  /** The record `event` changes, and how; null when it changes none. Pure. */
  changeOf(event: RecordedEvent): { readonly key: string; readonly change: RecordChange<Row> } | null;
}

/** The row of each projection, by name. A new projection is a row here and an entry in PROJECTIONS. */
export interface ProjectedRows {
  /** The delivery state of a mail still to send, by its event's id (see outbox-entry.ts). */
  readonly outbox: OutboxEntry;
}

export type ProjectionName = keyof ProjectedRows;

/** Every event projection: each store applies all of them to each event it appends, inside that write transaction. */
export const PROJECTIONS: { readonly [K in ProjectionName]: EventProjection<ProjectedRows[K]> } = {
  outbox: {
    changeOf: (event) => (needsMail(event) ? { key: event.eventId, change: { kind: 'insert', row: newEntry(event.eventId) } } : null),
  },
};

const PROJECTION_NAMES = Object.keys(PROJECTIONS) as ProjectionName[];

/**
 * A store's table of one projection, used only inside the store's write transaction. `Done` is what a write returns:
 * void in a store whose writes are synchronous (memory, LMDB), Promise<void> in one whose writes are awaited (MongoDB).
 * `event` is the event being applied, for what a store derives from it (an expiry, an ordering time).
 */
export interface ProjectionTable<Row, Done> {
  insert(key: string, row: Row, event: RecordedEvent): Done;
  update(key: string, next: (current: Row | undefined) => Row, event: RecordedEvent): Done;
  remove(key: string, event: RecordedEvent): Done;
}

/** One table per projection: a store that lacks one for a new projection does not compile. */
export type ProjectionTables<Done> = { readonly [K in ProjectionName]: ProjectionTable<ProjectedRows[K], Done> };

const applyOne = <K extends ProjectionName, Done>(name: K, event: RecordedEvent, tables: ProjectionTables<Done>): Done | undefined => {
  const found = PROJECTIONS[name].changeOf(event);
  if (!found) return undefined;
  const table: ProjectionTable<ProjectedRows[K], Done> = tables[name];
  const { key, change } = found;
  switch (change.kind) {
    case 'insert':
      return table.insert(key, change.row, event);
    case 'update':
      return table.update(key, change.next, event);
    case 'remove':
      return table.remove(key, event);
  }
};

/** Applies every projection to one event just appended, in a store whose writes are synchronous (inside its transaction). */
export function applyProjections(event: RecordedEvent, tables: ProjectionTables<void>): void {
  for (const name of PROJECTION_NAMES) applyOne(name, event, tables);
}

/** Applies every projection to one event just appended, one write after the other, in a store whose writes are awaited. */
export async function applyProjectionsInTransaction(event: RecordedEvent, tables: ProjectionTables<Promise<void>>): Promise<void> {
  for (const name of PROJECTION_NAMES) await applyOne(name, event, tables);
}
