import { token } from '../../di-token.js';
import type { RecordedEvent } from '../../ports/event-log.port.js';

/** Where one receiver's deliveries stand: the place in the log after which events are still to be sent to it. */
export interface WebhookCursor {
  readonly position: string;
  /** Failed deliveries of the event after `position` so far. */
  readonly attempts: number;
  /** Epoch ms before which the event after `position` is not tried again (0: now). */
  readonly nextAttemptAt: number;
}

/** An event to deliver, and the place in the log just after it. */
export interface FeedItem {
  readonly event: RecordedEvent;
  readonly position: string;
  /**
   * For a capability's event, what its capability declared (stamped when appended): the type receivers see and the
   * payload fields they are shown. Absent for the core's events (WEBHOOK_TYPES).
   */
  readonly declared?: { readonly type: string; readonly shows: readonly string[] };
}

/**
 * The events each webhook receiver is sent, in log order, and where each receiver stands. A receiver's cursor is held
 * by one dispatcher at a time (a lease taken by compare-and-swap), so instances sharing the store never send the same
 * events to it at once.
 */
export interface WebhookFeed {
  /** The receiver's cursor and the end of its lease (epoch ms, 0 when free), read without writing; null for a receiver never seen. */
  state(receiverId: string): Promise<{ readonly cursor: WebhookCursor; readonly leaseUntil: number } | null>;
  /**
   * Leases the receiver's cursor until `now + leaseMs` and returns it; null while another dispatcher holds it or took it
   * since `state` was read (a compare-and-swap). A receiver
   * seen for the first time starts at `now`: it is sent what happens from then on, not the log before it.
   */
  lease(receiverId: string, now: Date, leaseMs: number): Promise<WebhookCursor | null>;
  /** Up to `limit` events of a webhook type after `position` that occurred at or before `settledBefore`, in log order. */
  after(position: string, settledBefore: Date, limit: number): Promise<FeedItem[]>;
  /** Writes the receiver's cursor and releases the lease (a dead letter for `deadLetter`, in the same write). */
  release(receiverId: string, cursor: WebhookCursor, deadLetter?: { readonly eventId: string; readonly at: Date; readonly error: string }): Promise<void>;
}

/** One webhook as sent: Standard Webhooks' `webhook-id` (the event id: a receiver drops repeats) and its body. */
export interface WebhookMessage {
  readonly id: string;
  readonly type: string;
  readonly timestamp: Date;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Sends signed webhooks (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature v1). */
export interface WebhookSender {
  /** Resolves once the receiver answered 2xx; rejects on any other answer, a timeout or a network failure. */
  send(url: string, message: WebhookMessage): Promise<void>;
}

export const WEBHOOK_FEED = token<WebhookFeed>('WebhookFeed');
export const WEBHOOK_SENDER = token<WebhookSender>('WebhookSender');
