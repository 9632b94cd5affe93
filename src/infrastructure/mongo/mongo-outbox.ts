import type { Outbox, PendingMail } from '../../application/ports/outbox.port.js';
import { fromEventDocument } from './mongo-documents.js';
import type { MongoStore } from './mongo-store.js';

/** The outbox in MongoDB; each entry is leased with one findOneAndUpdate, so two instances never hold the same one. */
export class MongoOutbox implements Outbox {
  constructor(private readonly store: MongoStore) {}

  private get outbox() {
    return this.store.outbox;
  }

  async claim(now: Date, leaseMs: number, limit: number): Promise<PendingMail[]> {
    const claimed: PendingMail[] = [];
    const at = now.getTime();
    for (let i = 0; i < limit; i++) {
      const entry = await this.store.guarded(() =>
        this.outbox.findOneAndUpdate(
          { nextAttemptAt: { $lte: at }, leaseUntil: { $lte: at } },
          { $set: { leaseUntil: at + leaseMs } },
          { sort: { createdAt: 1 }, returnDocument: 'after' },
        ),
      );
      if (!entry) break;
      const event = await this.store.guarded((signal) => this.store.events.findOne({ eventId: entry.eventId }, { signal }));
      if (event) claimed.push({ event: fromEventDocument(event), attempts: entry.attempts });
    }
    return claimed;
  }

  async markSent(eventId: string): Promise<void> {
    await this.store.guarded(() => this.outbox.deleteOne({ _id: eventId }));
  }

  async markFailed(eventId: string, nextAttemptAt: Date): Promise<void> {
    await this.store.guarded(() => this.outbox.updateOne({ _id: eventId }, { $inc: { attempts: 1 }, $set: { nextAttemptAt: nextAttemptAt.getTime(), leaseUntil: 0 } }));
  }
}
