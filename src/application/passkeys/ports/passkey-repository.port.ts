import type { Passkey, WebAuthnChallenge } from '../../../domain/passkeys/passkey.js';
import type { RecordedEvent } from '../../ports/event-log.port.js';
import { token } from '../../di-token.js';

/** Passkeys an account lists at most (and registers at most). */
export const PASSKEYS_PER_ACCOUNT_MAX = 20;

/** What adding a passkey came to (see `PasskeyRepository.add`). */
export type PasskeyAddOutcome = 'added' | 'taken' | 'full';

/** What removing a passkey came to (see `PasskeyRepository.remove`). */
export type PasskeyRemoveOutcome = 'removed' | 'last' | 'changed';

/**
 * The accounts' passkeys, and the WebAuthn challenges in progress. Every write is one compare-and-swap commit with
 * its events: a credential id is held by one account at most, a counter moves on once, a challenge answers once.
 */
export interface PasskeyRepository {
  /** The passkey with this credential id, whatever its account; null when none. */
  find(id: string): Promise<Passkey | null>;
  /** The account's passkeys, oldest first, at most PASSKEYS_PER_ACCOUNT_MAX. */
  listByUser(userId: string): Promise<Passkey[]>;
  /**
   * Stores a new passkey with its events while its account holds fewer than PASSKEYS_PER_ACCOUNT_MAX, counted in the
   * same commit, so that simultaneous adds never pass the cap. Writes nothing otherwise: 'taken' when its credential
   * id is registered already (any account), 'full' when the account is at the cap.
   */
  add(passkey: Passkey, events: readonly RecordedEvent[]): Promise<PasskeyAddOutcome>;
  /** Stores a loaded passkey at the version it was loaded at, with its events; false when another write got there first. */
  save(passkey: Passkey, events: readonly RecordedEvent[]): Promise<boolean>;
  /**
   * Removes a loaded passkey at its version, with its events, and counts it out, only while the account keeps another
   * way in (a password, a passkey, a provider identity), counted in the same commit (of simultaneous removals and
   * unlinks, never one too many). Writes nothing otherwise: 'last' when none would remain, 'changed' when it changed
   * after it was read (decide again).
   */
  remove(passkey: Passkey, events: readonly RecordedEvent[]): Promise<PasskeyRemoveOutcome>;
  /** Records events alone (a refused assertion's PasskeyCounterRegressed). */
  record(events: readonly RecordedEvent[]): Promise<void>;
  /** Stores a new challenge. */
  openChallenge(challenge: WebAuthnChallenge): Promise<void>;
  /**
   * Takes a challenge of `purpose` for its one use: removes it and returns it; null, removing nothing, when there is
   * none (never issued, used, swept), it is of the other purpose, or it expired at `at`. Of simultaneous takes of one
   * challenge exactly one gets it.
   */
  takeChallenge(challenge: string, purpose: WebAuthnChallenge['purpose'], at: Date): Promise<WebAuthnChallenge | null>;
}

export const PASSKEY_REPOSITORY = token<PasskeyRepository>('PasskeyRepository');
