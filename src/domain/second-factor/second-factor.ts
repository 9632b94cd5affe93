import type { DomainEvent } from '../domain-event.js';
import type { FirstFactor } from '../session.js';

/** A TOTP factor confirmed for an account: never with its secret, a code or a recovery code. */
export type MfaEnrolled = DomainEvent<'MfaEnrolled', { readonly email: string }>;
/** The account's TOTP factor removed (with its recovery codes) by its owner, after a step-up. */
export type MfaRemoved = DomainEvent<'MfaRemoved', { readonly email: string }>;
/** A recovery code spent (at a sign-in or a step-up): `left` unused ones remain. Never the code. */
export type RecoveryCodeUsed = DomainEvent<'RecoveryCodeUsed', { readonly email: string; readonly left: number }>;
/** Every recovery code replaced by new ones, after a step-up. Never a code. */
export type RecoveryCodesRegenerated = DomainEvent<'RecoveryCodesRegenerated', { readonly email: string }>;

export type SecondFactorEvent = MfaEnrolled | MfaRemoved | RecoveryCodeUsed | RecoveryCodesRegenerated;

export const mfaEnrolled = (userId: string, email: string, at: Date): MfaEnrolled => ({ type: 'MfaEnrolled', aggregateId: userId, occurredAt: at, payload: { email } });
export const mfaRemoved = (userId: string, email: string, at: Date): MfaRemoved => ({ type: 'MfaRemoved', aggregateId: userId, occurredAt: at, payload: { email } });
export const recoveryCodeUsed = (userId: string, email: string, left: number, at: Date): RecoveryCodeUsed =>
  ({ type: 'RecoveryCodeUsed', aggregateId: userId, occurredAt: at, payload: { email, left } });
export const recoveryCodesRegenerated = (userId: string, email: string, at: Date): RecoveryCodesRegenerated =>
  ({ type: 'RecoveryCodesRegenerated', aggregateId: userId, occurredAt: at, payload: { email } });

/**
 * A sign-in waiting for its second factor: the password was right, and the account has a confirmed factor. Known by
 * a keyed MAC of the `mfatoken` handed to the client (never the token), single-use, short-lived, and bound to the
 * account's session epoch at that moment: a password change or reset in between (the epoch moves on) ends it.
 */
export interface MfaChallenge {
  /** The keyed MAC of the mfatoken. */
  readonly id: string;
  readonly userId: string;
  readonly epoch: number;
  /** What the sign-in proved before the challenge: a password (absent, as in records written before it existed) or a provider. */
  readonly firstFactor?: FirstFactor;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly version?: number;
}


/** Whether a challenge may still be answered at `at`, for an account now at `accountEpoch`. */
export const challengeOpen = (challenge: MfaChallenge, at: Date, accountEpoch: number): boolean =>
  at.getTime() < challenge.expiresAt.getTime() && challenge.epoch === accountEpoch;

/** Wrong codes one challenge takes; the next attempt, right or wrong, finds it ended. */
export const CHALLENGE_MAX_WRONG_CODES = 5;


/**
 * A TOTP second factor of an account, as the domain sees it: whether it is confirmed (its first code proved the
 * authenticator holds the secret) and the last time step a code was accepted for. The secret itself is opaque here
 * (sealed by the store's adapter) and codes are computed by the Totp port; what the domain owns is the rule that
 * makes a code single-use: **a step is accepted once**, and never one at or before the last accepted, so a code
 * replayed within its window, on any instance, is refused (the repository stores the factor by compare-and-swap).
 */
export interface TotpFactorSnapshot {
  readonly userId: string;
  /** The secret, sealed (encrypted at rest); never shown after enrolment. */
  readonly sealedSecret: string;
  readonly createdAt: Date;
  /** Null until the first code confirms the enrolment. */
  readonly confirmedAt: Date | null;
  /** The last step a code was accepted for; -1 before any. */
  readonly lastStep: number;
  /** The recovery codes, as keyed MACs (never the codes), each used at most once. */
  readonly recoveryCodes: readonly RecoveryCode[];
  readonly version?: number;
}

export interface RecoveryCode {
  readonly mac: string;
  readonly usedAt: Date | null;
}

export class TotpFactor {
  private constructor(private state: TotpFactorSnapshot) {}

  /** A factor being enrolled: its secret handed to the owner once, no code accepted yet. */
  static enrol(userId: string, sealedSecret: string, at: Date): TotpFactor {
    return new TotpFactor({ userId, sealedSecret, createdAt: at, confirmedAt: null, lastStep: -1, recoveryCodes: [], version: 0 });
  }

  /** An enrolment started again before it was confirmed: a new secret, nothing used yet (the stored version kept). */
  restart(sealedSecret: string, at: Date): boolean {
    if (this.confirmed) return false;
    this.state = { ...this.state, sealedSecret, createdAt: at, lastStep: -1, recoveryCodes: [] };
    return true;
  }

  static restore(snapshot: TotpFactorSnapshot): TotpFactor {
    return new TotpFactor(snapshot);
  }

  get confirmed(): boolean {
    return this.state.confirmedAt !== null;
  }

  /** Steps at or before this were used: the Totp port looks for a matching step after it. */
  get lastStep(): number {
    return this.state.lastStep;
  }

  get sealedSecret(): string {
    return this.state.sealedSecret;
  }

  /**
   * Takes `step` as used (the step a code matched): true when it is after the last used, which it becomes; false,
   * changing nothing, for a step already used or older (a replay). The first accepted step confirms the enrolment.
   */
  accept(step: number, at: Date): boolean {
    if (!Number.isInteger(step) || step <= this.state.lastStep) return false;
    this.state = { ...this.state, lastStep: step, confirmedAt: this.state.confirmedAt ?? at };
    return true;
  }

  /** How many recovery codes are left unused. */
  get recoveryCodesLeft(): number {
    return this.state.recoveryCodes.filter((code) => code.usedAt === null).length;
  }

  /** Replaces every recovery code by new ones (their MACs): the old ones, used or not, stop working. */
  replaceRecoveryCodes(macs: readonly string[]): void {
    this.state = { ...this.state, recoveryCodes: macs.map((mac) => ({ mac, usedAt: null })) };
  }

  /**
   * Uses the unused recovery code `matches` recognises (its MAC compared by the caller, in constant time): true, and
   * the code is spent; false, changing nothing, when none matches or it was used. Single use under concurrency comes
   * from the repository's compare-and-swap on the factor.
   */
  useRecoveryCode(matches: (mac: string) => boolean, at: Date): boolean {
    const index = this.state.recoveryCodes.findIndex((code) => code.usedAt === null && matches(code.mac));
    if (index === -1) return false;
    this.state = { ...this.state, recoveryCodes: this.state.recoveryCodes.map((code, i) => (i === index ? { ...code, usedAt: at } : code)) };
    return true;
  }

  /**
   * Whether `matches` recognises a recovery code of this factor that was used already: the answer of a request that
   * lost the race for it, or a replay, which is refused without counting as a guess (a guess cannot name a used code).
   */
  spentRecoveryCode(matches: (mac: string) => boolean): boolean {
    return this.state.recoveryCodes.some((code) => code.usedAt !== null && matches(code.mac));
  }

  snapshot(): TotpFactorSnapshot {
    return { ...this.state };
  }
}
