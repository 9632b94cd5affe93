import type { MfaChallenge, TotpFactor } from '../../../domain/second-factor/second-factor.js';
import type { Limit } from '../../ports/attempt-limits.port.js';
import type { RecordedEvent } from '../../ports/event-log.port.js';
import { token } from '../../di-token.js';
import type { MfaStatus } from '../../ports/user-read-model.port.js';

/**
 * The accounts' TOTP factors (at most one each), written by compare-and-swap: of two writers holding one version,
 * one wins, so a time step or a recovery code is spent once across every instance.
 */
export interface SecondFactorRepository {
  /** The factor of the account, or null when it has none. */
  find(userId: string): Promise<TotpFactor | null>;
  /** The account's factor as `/auth/me` shows it: confirmed or not, and its unused recovery codes (not enrolled, 0 codes, for none). One read by key; never the aggregate. */
  statusOf(userId: string): Promise<MfaStatus>;
  /** Stores a new factor with its events; false, writing nothing, when the account has one already. */
  add(factor: TotpFactor, events: readonly RecordedEvent[]): Promise<boolean>;
  /**
   * Stores a loaded factor with its events if the stored one is still at the version it was loaded at, and returns
   * true; false, writing nothing, when another write got there first: reload and decide again.
   */
  save(factor: TotpFactor, events: readonly RecordedEvent[]): Promise<boolean>;
  /** Removes the factor at its loaded version with its events; false, removing nothing, when it changed meanwhile. */
  remove(factor: TotpFactor, events: readonly RecordedEvent[]): Promise<boolean>;

  /** Stores a new sign-in challenge (its id is the MAC of its token). */
  openChallenge(challenge: MfaChallenge): Promise<void>;
  /** The challenge with this id, or null (never stored, answered, or swept). */
  findChallenge(id: string): Promise<MfaChallenge | null>;
  /**
   * Answers a challenge, in one commit: the challenge is removed at the version it was read at (single use), the
   * factor (when a code answered; null for a passkey) stored by compare-and-swap (the time step or recovery code it spent), one attempt counted against
   * `guard` (the challenge's cap of wrong codes), and the events appended. `conflict`: the challenge was answered or
   * the factor changed meanwhile (reload and decide again); `limited`: `guard` was at its cap (nothing written).
   */
  completeChallenge(challenge: MfaChallenge, factor: TotpFactor | null, guard: Limit, at: Date, events: readonly RecordedEvent[]): Promise<'completed' | 'conflict' | 'limited'>;
}

export const SECOND_FACTOR_REPOSITORY = token<SecondFactorRepository>('SecondFactorRepository');
