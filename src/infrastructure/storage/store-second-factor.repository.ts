import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { SecondFactorRepository } from '../../application/ports/second-factor-repository.port.js';
import type { TotpFactor } from '../../domain/second-factor.js';
import { TOTP_FACTORS, totpFactorOf, totpFactorRecordOf } from './factor-tables.js';
import { type Store, put, remove } from './store.js';

/** TOTP factors over the storage primitive, the same for every store: each write one compare-and-swap commit with its events. */
export class StoreSecondFactorRepository implements SecondFactorRepository {
  constructor(private readonly store: Store) {}

  async find(userId: string): Promise<TotpFactor | null> {
    const stored = await this.store.get(TOTP_FACTORS, userId);
    return stored && totpFactorOf(stored);
  }

  async add(factor: TotpFactor, events: readonly RecordedEvent[]): Promise<boolean> {
    return this.commit(factor, null, events);
  }

  async save(factor: TotpFactor, events: readonly RecordedEvent[]): Promise<boolean> {
    return this.commit(factor, factor.snapshot().version ?? 0, events);
  }

  async remove(factor: TotpFactor, events: readonly RecordedEvent[]): Promise<boolean> {
    const { userId, version } = factor.snapshot();
    return (await this.store.commit({ changes: [remove(TOTP_FACTORS, userId, version ?? 0)], events })).status === 'committed';
  }

  private async commit(factor: TotpFactor, expected: number | null, events: readonly RecordedEvent[]): Promise<boolean> {
    const change = put(TOTP_FACTORS, factor.snapshot().userId, totpFactorRecordOf(factor), expected);
    return (await this.store.commit({ changes: [change], events })).status === 'committed';
  }
}
