import { WEBHOOK_TYPES, webhookData } from '../../../domain/webhook-events.js';
import type { Ports } from '../../ports/ports.js';
import type { WebhookCursor } from '../../ports/webhooks.port.js';

export interface WebhookSettings {
  /** The receivers' URLs (WEBHOOK_URL), each with its own cursor, lease and retries. */
  readonly receivers: readonly { readonly id: string; readonly url: string }[];
  /** A delivery that failed this many times is given up (a dead letter) and the receiver's stream moves on. */
  readonly maxAttempts: number;
  readonly baseBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly leaseMs: number;
  readonly batchSize: number;
  /** Events younger than this are left for the next run: a commit of another process may still land before them. */
  readonly settleMs: number;
}

export interface WebhookReport {
  readonly delivered: number;
  readonly retried: number;
  readonly deadLettered: number;
}

const NOTHING: WebhookReport = { delivered: 0, retried: 0, deadLettered: 0 };

/**
 * Delivers the account events to one receiver, at least once and in log order (so in order per account): leases the
 * receiver's cursor, sends the events after it one by one, and moves the cursor past each one delivered. A failure is
 * retried with exponential backoff (the receiver's stream waits: nothing after it is sent first), and given up after
 * `maxAttempts` (a dead letter) so one bad event does not stop the stream. A crash before the cursor moves sends the
 * events again, with the same `webhook-id`. Each receiver runs apart: a slow or dead one delays no other, nor mail.
 */
export class DeliverWebhooksHandler {
  constructor(
    private readonly deps: Pick<Ports, 'webhookFeed' | 'webhookSender' | 'clock'>,
    private readonly settings: WebhookSettings,
  ) {}

  async execute(receiver: { readonly id: string; readonly url: string }): Promise<WebhookReport> {
    const { webhookFeed, webhookSender, clock } = this.deps;
    const now = clock.now();
    const cursor = await webhookFeed.lease(receiver.id, now, this.settings.leaseMs);
    if (!cursor) return NOTHING;
    if (cursor.nextAttemptAt > now.getTime()) {
      await webhookFeed.release(receiver.id, cursor);
      return NOTHING;
    }
    const items = await webhookFeed.after(cursor.position, new Date(now.getTime() - this.settings.settleMs), this.settings.batchSize);
    let position = cursor.position;
    let delivered = 0;
    let headAttempts = cursor.attempts;
    for (const { event, position: next } of items) {
      try {
        await webhookSender.send(receiver.url, { id: event.eventId, type: WEBHOOK_TYPES[event.type] ?? event.type, timestamp: event.occurredAt, data: webhookData(event) });
        position = next;
        delivered += 1;
        headAttempts = 0;
      } catch (error) {
        const attempts = headAttempts + 1;
        const text = (error instanceof Error ? error.message : String(error)).slice(0, 500);
        if (attempts >= this.settings.maxAttempts) {
          await webhookFeed.release(receiver.id, { position: next, attempts: 0, nextAttemptAt: 0 }, { eventId: event.eventId, at: clock.now(), error: text });
          return { delivered, retried: 0, deadLettered: 1 };
        }
        await webhookFeed.release(receiver.id, this.retry(position, attempts));
        return { delivered, retried: 1, deadLettered: 0 };
      }
    }
    await webhookFeed.release(receiver.id, { position, attempts: headAttempts, nextAttemptAt: 0 });
    return { delivered, retried: 0, deadLettered: 0 };
  }

  private retry(position: string, attempts: number): WebhookCursor {
    const backoff = Math.min(this.settings.baseBackoffMs * 2 ** (attempts - 1), this.settings.maxBackoffMs);
    return { position, attempts, nextAttemptAt: this.deps.clock.now().getTime() + backoff };
  }
}
