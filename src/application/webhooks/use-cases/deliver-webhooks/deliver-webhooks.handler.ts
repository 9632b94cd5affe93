import { WEBHOOK_TYPES, webhookData } from '../../../../domain/webhook-events.js';
import type { WebhookPorts } from '../../ports/webhook-ports.js';
import type { WebhookCursor } from '../../ports/webhooks.port.js';

export interface WebhookSettings {
  /** The receivers' URLs (WEBHOOK_URL), each with its own cursor, lease and retries. */
  readonly receivers: readonly { readonly id: string; readonly url: string }[];
  /** A delivery that failed this many times is given up (a dead letter) and the receiver's stream moves on. */
  readonly maxAttempts: number;
  readonly baseBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly leaseMs: number;
  /** How long one send may take (WEBHOOK_TIMEOUT_MS): no send starts that the lease could not cover to its end. */
  readonly sendTimeoutMs: number;
  readonly batchSize: number;
  /** Events younger than this are left for the next run: a commit of another process may still land before them. */
  readonly settleMs: number;
}

/** The delivery that failed in a run, for the log line: never the payload. */
export interface WebhookFailure {
  readonly eventId: string;
  /** Failed deliveries of this event so far, this one included. */
  readonly attempts: number;
  /** Why, in words (`the receiver answered 503`, `no answer within 5000 ms`, `no answer: connect ECONNREFUSED ...`). */
  readonly error: string;
  /** The receiver's status, when it answered. */
  readonly status?: number;
  /** When it is tried again; null when it was given up (a dead letter). */
  readonly nextAttemptAt: Date | null;
}

export interface WebhookReport {
  readonly delivered: number;
  readonly retried: number;
  readonly deadLettered: number;
  /** Present when the run ended on a failure (retried or dead-lettered). */
  readonly failure?: WebhookFailure;
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
    private readonly deps: WebhookPorts,
    private readonly settings: WebhookSettings,
  ) {}

  async execute(receiver: { readonly id: string; readonly url: string }): Promise<WebhookReport> {
    const { webhookFeed, webhookSender, clock } = this.deps;
    const now = clock.now();
    const settled = new Date(now.getTime() - this.settings.settleMs);
    if (!(await this.due(receiver.id, now, settled))) return NOTHING;
    const cursor = await webhookFeed.lease(receiver.id, now, this.settings.leaseMs);
    if (!cursor) return NOTHING;
    if (cursor.nextAttemptAt > now.getTime()) {
      await webhookFeed.release(receiver.id, cursor);
      return NOTHING;
    }
    const leaseEnds = now.getTime() + this.settings.leaseMs;
    const items = await webhookFeed.after(cursor.position, settled, this.settings.batchSize);
    let position = cursor.position;
    let delivered = 0;
    let headAttempts = cursor.attempts;
    for (const { event, position: next, declared } of items) {
      if (clock.now().getTime() + this.settings.sendTimeoutMs > leaseEnds) break;
      try {
        const type = declared?.type ?? WEBHOOK_TYPES[event.type] ?? event.type;
        await webhookSender.send(receiver.url, { id: event.eventId, type, timestamp: event.occurredAt, data: webhookData(event, declared?.shows) });
        position = next;
        delivered += 1;
        headAttempts = 0;
      } catch (error) {
        const attempts = headAttempts + 1;
        const text = (error instanceof Error ? error.message : String(error)).slice(0, 500);
        const status = (error as { status?: unknown } | null)?.status;
        const failed = { eventId: event.eventId, attempts, error: text, ...(typeof status === 'number' ? { status } : {}) };
        if (attempts >= this.settings.maxAttempts) {
          await webhookFeed.release(receiver.id, { position: next, attempts: 0, nextAttemptAt: 0 }, { eventId: event.eventId, at: clock.now(), error: text });
          return { delivered, retried: 0, deadLettered: 1, failure: { ...failed, nextAttemptAt: null } };
        }
        const cursor = this.retry(position, attempts);
        await webhookFeed.release(receiver.id, cursor);
        return { delivered, retried: 1, deadLettered: 0, failure: { ...failed, nextAttemptAt: new Date(cursor.nextAttemptAt) } };
      }
    }
    await webhookFeed.release(receiver.id, { position, attempts: headAttempts, nextAttemptAt: 0 });
    return { delivered, retried: 0, deadLettered: 0 };
  }

  /**
   * Whether a run has anything to do, read without writing: a receiver never seen (its cursor starts now), or a free
   * cursor past its backoff with a settled event after it. An idle receiver then costs each instance one read a poll,
   * and a dispatcher that dies while idle holds no lease that would stall the next one.
   */
  private async due(receiverId: string, now: Date, settled: Date): Promise<boolean> {
    const state = await this.deps.webhookFeed.state(receiverId);
    if (state === null) return true;
    if (state.leaseUntil > now.getTime() || state.cursor.nextAttemptAt > now.getTime()) return false;
    return (await this.deps.webhookFeed.after(state.cursor.position, settled, 1)).length > 0;
  }

  private retry(position: string, attempts: number): WebhookCursor {
    const backoff = Math.min(this.settings.baseBackoffMs * 2 ** (attempts - 1), this.settings.maxBackoffMs);
    return { position, attempts, nextAttemptAt: this.deps.clock.now().getTime() + backoff };
  }
}
