import type { FeedItem, WebhookCursor, WebhookFeed } from '../../application/webhooks/ports/webhooks.port.js';
import { EVENTS, toRecordedEvent } from '../storage/event-tables.js';
import { type Store, entryOf, put } from '../storage/store.js';
import { WEBHOOK_CURSORS, WEBHOOK_DEAD_LETTERS } from './webhook-tables.js';

/** The place in the log of everything that happens from `at` on (an event's place starts with `b` and its time in ms). */
const positionAt = (at: Date): string => `b${at.getTime().toString(16).padStart(12, '0')}`;

/** The webhook feed over the storage primitive, the same for every store: the log's `webhooks` index and one cursor per receiver. */
export class StoreWebhookFeed implements WebhookFeed {
  constructor(private readonly store: Store) {}

  async state(receiverId: string): Promise<{ cursor: WebhookCursor; leaseUntil: number } | null> {
    const stored = await this.store.get(WEBHOOK_CURSORS, receiverId);
    if (!stored) return null;
    const { position, attempts, nextAttemptAt, leaseUntil } = stored.value;
    return { cursor: { position, attempts, nextAttemptAt }, leaseUntil };
  }

  async lease(receiverId: string, now: Date, leaseMs: number): Promise<WebhookCursor | null> {
    const stored = await this.store.get(WEBHOOK_CURSORS, receiverId);
    if (stored && stored.value.leaseUntil > now.getTime()) return null;
    const cursor: WebhookCursor = stored ? { position: stored.value.position, attempts: stored.value.attempts, nextAttemptAt: stored.value.nextAttemptAt } : { position: positionAt(now), attempts: 0, nextAttemptAt: 0 };
    const outcome = await this.store.commit({ changes: [put(WEBHOOK_CURSORS, receiverId, { ...cursor, leaseUntil: now.getTime() + leaseMs }, stored?.version ?? null)] });
    return outcome.status === 'committed' ? cursor : null;
  }

  async after(position: string, settledBefore: Date, limit: number): Promise<FeedItem[]> {
    const found = await this.store.range(EVENTS, 'webhooks', { prefix: [], after: position, limit });
    const settled = found.findIndex((stored) => stored.value.occurredAt.getTime() > settledBefore.getTime());
    return (settled < 0 ? found : found.slice(0, settled)).map(({ key, value }) => ({
      event: toRecordedEvent(value),
      position: entryOf([value.seq], key),
      ...(value.webhook === undefined ? {} : { declared: value.webhook }),
    }));
  }

  async release(receiverId: string, cursor: WebhookCursor, deadLetter?: { readonly eventId: string; readonly at: Date; readonly error: string }): Promise<void> {
    await this.store.commit({
      changes: [
        put(WEBHOOK_CURSORS, receiverId, { ...cursor, leaseUntil: 0 }, 'any'),
        ...(deadLetter ? [put(WEBHOOK_DEAD_LETTERS, `${receiverId}:${deadLetter.eventId}`, { receiverId, ...deadLetter }, 'any')] : []),
      ],
    });
  }
}
