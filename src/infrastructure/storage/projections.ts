import { OUTBOX, type OutboxRecord } from './event-tables.js';
import { needsMail, newEntry } from './outbox-entry.js';
import type { EventProjection } from './store.js';
import { directory } from './directory-tables.js';

export type { EventProjection, ProjectedChange } from './store.js';

const outbox: EventProjection<OutboxRecord> = {
  table: OUTBOX,
  on: 'every',
  changeOf: (event, seq) => (needsMail(event) ? { key: event.eventId, next: (current) => current ?? { ...newEntry(event.eventId), seq } } : null),
};

/**
 * The core's event projections: a commit applies each to each event it appends of a type it reads (`on`), in the same
 * transaction, on every store (commit-plan.ts). The schema gives them (and a capability's) to the store, which passes
 * them with each commit (`Changes.projections`): the engine imports none. A new projection is its table and an entry here.
 */
export const PROJECTIONS: readonly EventProjection<unknown>[] = [outbox as EventProjection<unknown>, directory as EventProjection<unknown>];
