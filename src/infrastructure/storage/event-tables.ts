import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { type OutboxEntry, dueAtOf } from './outbox-entry.js';
import type { EventStamps } from '../../application/ports/event-declarations.js';
import { type Retention, retentionOf } from './retention.js';
import { WEBHOOK_TYPES } from '../../domain/webhook-events.js';
import type { Table } from './store.js';

/**
 * An event as stored: with `seq`, its place in the log (append order), which every index of the log ends with; and,
 * for a capability's event, what its capability declared (EventStamps: its retention, webhook, mail and activity; the
 * core's types are in RETENTION, WEBHOOK_TYPES, MAIL_EVENT_TYPES and the activity's list).
 */
export type EventRecord = RecordedEvent & { readonly seq: string } & EventStamps;

/** What EVENT_RETENTION_DAYS does to this stored event: its capability's declaration, else the core's table. */
export const retentionOfEvent = (event: { readonly type: string; readonly retention?: Retention }): Retention => event.retention ?? retentionOf(event.type);

export { appendedAs } from '../../application/ports/event-declarations.js';

/** Whether webhook receivers are sent this stored event: as its capability declared, else as the core's list says. */
const isWebhook = (event: EventRecord): boolean => (event.retention === undefined ? WEBHOOK_TYPES[event.type] !== undefined : event.webhook !== undefined);

/** An outbox entry as stored, with its event's `seq` (claims go in append order among entries due at once). */
export type OutboxRecord = OutboxEntry & { readonly seq: string };

/**
 * The event log, by event id (appending an id already stored is a no-op). Per aggregate, newest first by `seq`; `prunable`: the events RETENTION may remove, oldest first (the retention sweep reads only those).
 */
export const EVENTS: Table<EventRecord> = {
  name: 'events',
  indexes: {
    byAggregate: (event) => (event.aggregateId === null ? null : [event.aggregateId, event.seq]),
    prunable: (event) => (retentionOfEvent(event) === 'keep' ? null : [event.occurredAt.getTime(), event.seq]),
    // The events webhook receivers are sent, in log order (events written before webhooks existed are in no index).
    webhooks: (event) => (isWebhook(event) ? [event.seq] : null),
  },
  owner: { account: { index: 'byAggregate' }, credential: false, exported: { not: 'shown as `activity`' }, shredded: true },
  // What an event says and who caused it: sealed under its account's key, so the erase leaves the log whole and unreadable.
  personal: { account: (event) => event.aggregateId, fields: ['payload', 'metadata'], outlivesKey: true },
};

/** The mails still to send, by event id: `due` orders those not given up by when they may next be claimed; `dead`, the dead letters. */
export const OUTBOX: Table<OutboxRecord> = {
  name: 'outbox',
  indexes: {
    due: (entry) => {
      const due = dueAtOf(entry);
      return due === null ? null : [due, entry.seq];
    },
    dead: (entry) => (entry.deadAt === undefined ? null : [entry.deadAt, entry.seq]),
  },
  owner: { account: { beside: EVENTS } },
};

let lastMs = 0;
let counter = 0;

/**
 * The next place in the log: the time in ms and a counter of this process, as text that sorts in append order within
 * a process (and by time across processes). `b` marks it; events moved from an older layout were given `a…`, before.
 */
export function nextSeq(now = Date.now()): string {
  lastMs = Math.max(lastMs, now);
  counter = (counter + 1) % 0x1_0000_0000;
  return `b${lastMs.toString(16).padStart(12, '0')}${counter.toString(16).padStart(8, '0')}`;
}

export const toRecordedEvent = ({ seq: _seq, retention: _retention, webhook: _webhook, mailed: _mailed, activity: _activity, ...event }: EventRecord): RecordedEvent => event;
