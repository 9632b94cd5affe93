import type { AttemptLimits, Limit, LimitReached } from '../../application/ports/attempt-limits.port.js';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { COUNTERS } from './commit-plan.js';
import type { Store } from './store.js';

/** Attempt limits over the storage primitive's conditional counters, for every store (swept as COUNTERS expire). */
export class StoreAttemptLimits implements AttemptLimits {
  constructor(private readonly store: Store) {}

  async take(limit: Limit | readonly Limit[], at: Date, events: readonly RecordedEvent[] = []): Promise<LimitReached | null> {
    const limits: readonly Limit[] = Array.isArray(limit) ? limit : [limit];
    const counts = limits.map(({ key, windowSeconds, max }) => ({ key, at: at.getTime(), windowMs: windowSeconds * 1000, max }));
    const outcome = await this.store.commit({ counts, events });
    return outcome.status === 'limited' ? { retryAt: new Date(outcome.retryAt), key: outcome.key } : null;
  }

  async check(limit: Limit, at: Date): Promise<LimitReached | null> {
    const counter = await this.store.get(COUNTERS, limit.key);
    const counted = (counter?.value.times ?? []).filter((time) => time > at.getTime() - limit.windowSeconds * 1000);
    const oldest = counted[limit.max - 1];
    return oldest === undefined ? null : { retryAt: new Date(oldest + limit.windowSeconds * 1000), key: limit.key };
  }

  async clear(key: string): Promise<void> {
    if (await this.store.get(COUNTERS, key)) await this.store.commit({ clears: [key] });
  }
}
