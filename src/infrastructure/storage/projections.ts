import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { OUTBOX, type OutboxRecord } from './event-tables.js';
import { needsMail, newEntry } from './outbox-entry.js';
import type { AnyTable } from './store.js';
import type { EventProjection } from './projections-types.js';
import { pendingEmailChanges, revertibleEmailChanges } from './email-change-tables.js';
import { directory } from './directory-tables.js';

export type { EventProjection, ProjectedChange } from './projections-types.js';

const outbox: EventProjection<OutboxRecord> = {
  table: OUTBOX,
  changeOf: (event, seq) => (needsMail(event) ? { key: event.eventId, next: (current) => current ?? { ...newEntry(event.eventId), seq } } : null),
};

/**
 * Every event projection: each commit applies all of them to each event it appends, in the same transaction, on
 * every store (commit-plan.ts). A new projection is its table and an entry here.
 */
export const PROJECTIONS: readonly EventProjection<unknown>[] = [outbox as EventProjection<unknown>, pendingEmailChanges as EventProjection<unknown>, revertibleEmailChanges as EventProjection<unknown>, directory as EventProjection<unknown>];

/** The records the projections of `event` read, for the commit's read set. */
export const projectedRefs = (event: RecordedEvent): { table: AnyTable; key: string }[] =>
  PROJECTIONS.flatMap((projection) => {
    const change = projection.changeOf(event, '');
    return change ? [{ table: projection.table, key: change.key }] : [];
  });
