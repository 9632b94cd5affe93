import type { AttemptLimits, Limit, LimitReached } from '../../application/ports/attempt-limits.port.js';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { COUNTERS } from './commit-plan.js';
import type { Store } from './store.js';

/** Attempt limits over the storage primitive's conditional counters, for every store (swept as COUNTERS expire). */
export class StoreAttemptLimits implements AttemptLimits {
  constructor(private readonly store: Store) {}

  async take(limit: Limit, at: Date, events: readonly RecordedEvent[] = []): Promise<LimitReached | null> {
    const count = { key: limit.key, at: at.getTime(), windowMs: limit.windowSeconds * 1000, max: limit.max };
    const outcome = await this.store.commit({ counts: [count], events });
    return outcome.status === 'limited' ? { retryAt: new Date(outcome.retryAt) } : null;
  }

  async check(limit: Limit, at: Date): Promise<LimitReached | null> {
    const counter = await this.store.get(COUNTERS, limit.key);
    const counted = (counter?.value.times ?? []).filter((time) => time > at.getTime() - limit.windowSeconds * 1000);
    const oldest = counted[limit.max - 1];
    return oldest === undefined ? null : { retryAt: new Date(oldest + limit.windowSeconds * 1000) };
  }

  async clear(key: string): Promise<void> {
    if (await this.store.get(COUNTERS, key)) await this.store.commit({ clears: [key] });
  }
}
