import type { TotpFactor } from '../../domain/second-factor.js';
import type { RecordedEvent } from './event-log.port.js';
import { token } from '../di-token.js';

/**
 * The accounts' TOTP factors (at most one each), written by compare-and-swap: of two writers holding one version,
 * one wins, so a time step or a recovery code is spent once across every instance.
 */
export interface SecondFactorRepository {
  /** The factor of the account, or null when it has none. */
  find(userId: string): Promise<TotpFactor | null>;
  /** Stores a new factor with its events; false, writing nothing, when the account has one already. */
  add(factor: TotpFactor, events: readonly RecordedEvent[]): Promise<boolean>;
  /**
   * Stores a loaded factor with its events if the stored one is still at the version it was loaded at, and returns
   * true; false, writing nothing, when another write got there first: reload and decide again.
   */
  save(factor: TotpFactor, events: readonly RecordedEvent[]): Promise<boolean>;
  /** Removes the factor at its loaded version with its events; false, removing nothing, when it changed meanwhile. */
  remove(factor: TotpFactor, events: readonly RecordedEvent[]): Promise<boolean>;
}

export const SECOND_FACTOR_REPOSITORY = token<SecondFactorRepository>('SecondFactorRepository');
