import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { MfaStatus } from '../../application/ports/user-read-model.port.js';
import type { SecondFactorRepository } from '../../application/second-factor/ports/second-factor-repository.port.js';
import type { Limit } from '../../application/ports/attempt-limits.port.js';
import type { MfaChallenge, TotpFactor } from '../../domain/second-factor/second-factor.js';
import { MFA_CHALLENGES, TOTP_FACTORS, challengeOf, challengeRecordOf, totpFactorOf, totpFactorRecordOf } from './factor-tables.js';
import { type Store, put, remove } from '../storage/store.js';

/** TOTP factors over the storage primitive, the same for every store: each write one compare-and-swap commit with its events. */
export class StoreSecondFactorRepository implements SecondFactorRepository {
  constructor(private readonly store: Store) {}

  /** From the factor's record, one read by key; only its confirmation and the unused codes are looked at. */
  async statusOf(userId: string): Promise<MfaStatus> {
    const factor = (await this.store.get(TOTP_FACTORS, userId))?.value;
    if (!factor || factor.confirmedAt === null) return { enrolled: false, recoveryCodesLeft: 0 };
    return { enrolled: true, recoveryCodesLeft: factor.recoveryCodes.filter((code) => code.usedAt === null).length };
  }

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

  async openChallenge(challenge: MfaChallenge): Promise<void> {
    await this.store.commit({ changes: [put(MFA_CHALLENGES, challenge.id, challengeRecordOf(challenge), null)] });
  }

  async findChallenge(id: string): Promise<MfaChallenge | null> {
    const stored = await this.store.get(MFA_CHALLENGES, id);
    return stored && challengeOf(stored);
  }

  async completeChallenge(challenge: MfaChallenge, factor: TotpFactor | null, guard: Limit, at: Date, events: readonly RecordedEvent[]): Promise<'completed' | 'conflict' | 'limited'> {
    const outcome = await this.store.commit({
      changes: [
        remove(MFA_CHALLENGES, challenge.id, challenge.version ?? 0),
        ...(factor ? [put(TOTP_FACTORS, factor.snapshot().userId, totpFactorRecordOf(factor), factor.snapshot().version ?? 0)] : []),
      ],
      counts: [{ key: guard.key, at: at.getTime(), windowMs: guard.windowSeconds * 1000, max: guard.max }],
      events,
    });
    return outcome.status === 'committed' ? 'completed' : outcome.status === 'limited' ? 'limited' : 'conflict';
  }

  private async commit(factor: TotpFactor, expected: number | null, events: readonly RecordedEvent[]): Promise<boolean> {
    const change = put(TOTP_FACTORS, factor.snapshot().userId, totpFactorRecordOf(factor), expected);
    return (await this.store.commit({ changes: [change], events })).status === 'committed';
  }
}
