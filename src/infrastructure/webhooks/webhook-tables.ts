import type { WebhookCursor } from '../../application/webhooks/ports/webhooks.port.js';
import type { Table } from '../storage/store.js';

/** A receiver's cursor as stored, with the lease of the dispatcher delivering to it now (epoch ms; 0: none). */
export type WebhookCursorRecord = WebhookCursor & { readonly leaseUntil: number };

/** Each webhook receiver's place in the event log, by receiver id (a hash of its URL). */
export const WEBHOOK_CURSORS: Table<WebhookCursorRecord> = {
  name: 'webhook-cursors',
  indexes: {},
  owner: { none: "webhook receivers' places in the log: a position and a lease, no account's data" },
};

/** A webhook given up after WEBHOOK_MAX_ATTEMPTS failures, kept for an operator: the event's id, never its content. */
export interface WebhookDeadLetter {
  readonly receiverId: string;
  readonly eventId: string;
  readonly at: Date;
  readonly error: string;
}

export const WEBHOOK_DEAD_LETTERS: Table<WebhookDeadLetter> = {
  name: 'webhook-dead-letters',
  indexes: { byTime: (letter) => [letter.at.getTime()] },
  owner: { none: 'webhooks given up: a receiver id, an event id, a time and the last error; no account data' },
};
