import type { DomainEvent } from './domain-event.js';

/**
 * Why a session ended. Set once, never cleared. `too_many_password_failures`: wrong current passwords were presented on
 * it (a password change) as often as allowed; `evicted`: the least recently used, ended by a sign-in over the
 * per-account cap.
 */
export type RevocationReason =
  | 'sign_out'
  | 'revoked'
  | 'password_changed'
  | 'reuse_detected'
  | 'expired'
  | 'too_many_password_failures'
  | 'evicted'
  | 'email_verified'
  /** The owner of the address cancelled a change of address they did not ask for: every session ends. */
  | 'email_change_cancelled'
  /** The previous address took the account back after a change of address (its revert link): every session ends. */
  | 'email_change_reverted'
  /** An operator ended every session (the admin API: a sign-out everywhere, or the account disabled). */
  | 'admin';

/**
 * How the holder of a session proved who they are (the `amr` claim, RFC 8176 values): `pwd` a password, `otp` a
 * one-time code (a TOTP code or a recovery code: the event log tells which), `webauthn` a passkey with user
 * verification (two factors in one), `oauth` an identity provider's sign-in (social sign-in; one factor, whatever the
 * provider asked: the provider's own `amr` is not trusted here).
 */
export type AuthMethod = 'pwd' | 'otp' | 'webauthn' | 'oauth';

export type SessionStarted = DomainEvent<'SessionStarted', { readonly email: string; readonly sessionId: string }>;
export type SessionRevoked = DomainEvent<'SessionRevoked', { readonly email: string; readonly sessionId: string; readonly reason: RevocationReason }>;
export type RefreshTokenReused = DomainEvent<'RefreshTokenReused', { readonly email: string; readonly sessionId: string }>;
export type SessionEvent = SessionStarted | SessionRevoked | RefreshTokenReused;

/** How long a session lives: since its last refresh (idle) and since it started (absolute), whichever ends first. */
export interface SessionLifetimes {
  readonly idleSeconds: number;
  readonly maxSeconds: number;
}

/** What presenting a refresh token of some generation means for the session now. */
export type RefreshDecision = 'rotate' | 'grace' | 'reuse';

export interface SessionSnapshot {
  readonly id: string;
  readonly userId: string;
  readonly email: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date;
  readonly absoluteExpiresAt: Date;
  /** The earlier of the absolute and the idle deadline: when the session ends unless refreshed. */
  readonly expiresAt: Date;
  /** Counts rotations: the refresh token of generation `generation` is the only current one. */
  readonly generation: number;
  readonly rotatedAt: Date | null;
  readonly revokedAt: Date | null;
  readonly revokedReason: RevocationReason | null;
  readonly clientIp: string | null;
  readonly userAgent: string | null;
  /** Optimistic concurrency: bumped by every stored change; a save against another version is refused. */
  readonly version: number;
  /** Wrong current passwords presented on this session (password changes); absent in records written before it: 0. */
  readonly passwordFailures?: number;
  /**
   * The account's session epoch the session belongs to (see `User.endSessions`): it is live only while the account is
   * still at this epoch. Absent in records written before epochs existed: 0.
   */
  readonly epoch?: number;
  /** How the holder proved who they are, most recently (absent in records written before: a password). */
  readonly amr?: readonly AuthMethod[];
  /** When they last did (the `auth_time` claim); absent in records written before: the session's start. */
  readonly authTime?: Date;
}

export interface SessionStart {
  readonly id: string;
  readonly userId: string;
  readonly email: string;
  readonly at: Date;
  readonly clientIp: string | null;
  readonly userAgent: string | null;
  readonly lifetimes: SessionLifetimes;
  /** The account's session epoch at the start (`User.sessionEpoch`). */
  readonly epoch: number;
  /** How the holder proved who they are; a password alone when absent. */
  readonly amr?: readonly AuthMethod[];
}

/**
 * When a session ended, or ends unless refreshed: the earlier of its revocation and its deadline. A store sweeps a
 * session once this has passed, so a revoked session goes at the next sweep, not at its deadline.
 */
export const endOf = (snapshot: Pick<SessionSnapshot, 'expiresAt' | 'revokedAt'>): Date =>
  snapshot.revokedAt !== null && snapshot.revokedAt.getTime() < snapshot.expiresAt.getTime() ? snapshot.revokedAt : snapshot.expiresAt;

const plusSeconds = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000);
const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

/**
 * One signed-in device. Its start is an event of the session itself (aggregate: the session id; the sign-up or
 * sign-in beside it is what the account's activity shows); its end and a detected reuse are events of the account
 * (aggregate: the user id), so the owner sees them in the activity feed.
 *
 * Holds no token: refresh tokens are derived from (id, generation) under a server secret, so
 * rotation is a change of `generation`, decided by compare-and-swap on `version` in every store.
 */
export class Session {
  private pending: SessionEvent[] = [];

  private constructor(private state: SessionSnapshot) {}

  static start(start: SessionStart): Session {
    const { id, userId, email, at, clientIp, userAgent, lifetimes, epoch, amr = ['pwd'] } = start;
    const absoluteExpiresAt = plusSeconds(at, lifetimes.maxSeconds);
    const session = new Session({
      id, userId, email, createdAt: at, lastUsedAt: at, absoluteExpiresAt,
      expiresAt: earlier(absoluteExpiresAt, plusSeconds(at, lifetimes.idleSeconds)),
      generation: 0, rotatedAt: null, revokedAt: null, revokedReason: null, clientIp, userAgent, version: 0, passwordFailures: 0, epoch,
      amr, authTime: at,
    });
    session.pending.push({ type: 'SessionStarted', aggregateId: userId, occurredAt: at, payload: { email, sessionId: id } });
    return session;
  }

  static restore(snapshot: SessionSnapshot): Session {
    return new Session({
      ...snapshot, passwordFailures: snapshot.passwordFailures ?? 0, epoch: snapshot.epoch ?? 0,
      amr: snapshot.amr ?? ['pwd'], authTime: snapshot.authTime ?? snapshot.createdAt,
    });
  }

  /** How the holder proved who they are (kept by refreshes; raised by a step-up). */
  get amr(): readonly AuthMethod[] {
    return this.state.amr ?? ['pwd'];
  }

  /** When the holder last proved who they are (kept by refreshes; moved by a step-up). */
  get authTime(): Date {
    return this.state.authTime ?? this.state.createdAt;
  }

  /**
   * The holder proved a factor again at `at` (a step-up): the methods are added to the session's, and `auth_time`
   * moves to `at`. Tokens issued from then on carry both; those issued before keep what they said. The refresh token
   * moves to the next generation with no grace: the raised rights belong only to the refresh token the step-up
   * answers, and the one before it is used up (presenting it again is a reuse, which ends the session).
   */
  proved(methods: readonly AuthMethod[], at: Date): void {
    const amr = [...this.amr, ...methods.filter((method) => !this.amr.includes(method))];
    this.state = { ...this.state, amr, authTime: at, generation: this.state.generation + 1, rotatedAt: null };
  }

  get id(): string {
    return this.state.id;
  }

  get userId(): string {
    return this.state.userId;
  }

  get generation(): number {
    return this.state.generation;
  }

  get revoked(): boolean {
    return this.state.revokedAt !== null;
  }

  /** The account's session epoch this session belongs to. */
  get epoch(): number {
    return this.state.epoch ?? 0;
  }

  /**
   * Not revoked, neither deadline passed, and not ended with the account's other sessions: the account is still at
   * the session's epoch (`accountEpoch`, `User.sessionEpoch`).
   */
  isLive(at: Date, accountEpoch: number): boolean {
    return !this.revoked && at.getTime() < this.state.expiresAt.getTime() && this.epoch === accountEpoch;
  }

  /**
   * Moves the session into the account's new epoch: the one session that outlives the ending of all the others
   * (`User.endSessions` with this session kept). Stored by compare-and-swap with the account.
   */
  carryInto(epoch: number): void {
    this.state = { ...this.state, epoch };
  }

  /**
   * What a refresh token of `generation` presented at `at` means: the current one rotates; the one just before it,
   * within `graceSeconds` of that rotation, gets the same successor again; anything else is a reuse.
   */
  decide(generation: number, at: Date, graceSeconds: number): RefreshDecision {
    if (generation === this.state.generation) return 'rotate';
    const { rotatedAt } = this.state;
    const withinGrace = rotatedAt !== null && at.getTime() - rotatedAt.getTime() <= graceSeconds * 1000;
    return generation === this.state.generation - 1 && withinGrace ? 'grace' : 'reuse';
  }

  /** Moves to the next generation; the idle deadline restarts, the absolute one stays. */
  rotate(at: Date, lifetimes: SessionLifetimes): void {
    this.state = {
      ...this.state,
      generation: this.state.generation + 1,
      rotatedAt: at,
      lastUsedAt: at,
      expiresAt: earlier(this.state.absoluteExpiresAt, plusSeconds(at, lifetimes.idleSeconds)),
    };
  }

  /** Ends the session for `reason`, recording SessionRevoked. A session already revoked keeps its first reason. */
  revoke(reason: RevocationReason, at: Date): void {
    if (this.revoked) return;
    this.state = { ...this.state, revokedAt: at, revokedReason: reason };
    this.pending.push({
      type: 'SessionRevoked', aggregateId: this.state.userId, occurredAt: at,
      payload: { email: this.state.email, sessionId: this.state.id, reason },
    });
  }

  /**
   * A wrong current password was presented on this session: counted; at `maxFailures` the session ends
   * (SessionRevoked, reason `too_many_password_failures`), so a stolen access token cannot keep guessing.
   */
  passwordCheckFailed(at: Date, maxFailures: number): void {
    if (this.revoked) return;
    const failures = (this.state.passwordFailures ?? 0) + 1;
    this.state = { ...this.state, passwordFailures: failures };
    if (failures >= maxFailures) this.revoke('too_many_password_failures', at);
  }

  /** A rotated refresh token came back outside the grace window: RefreshTokenReused, then the session ends. */
  reuseDetected(at: Date): void {
    if (this.revoked) return;
    this.pending.push({ type: 'RefreshTokenReused', aggregateId: this.state.userId, occurredAt: at, payload: { email: this.state.email, sessionId: this.state.id } });
    this.revoke('reuse_detected', at);
  }

  pullEvents(): SessionEvent[] {
    const events = this.pending;
    this.pending = [];
    return events;
  }

  snapshot(): SessionSnapshot {
    return this.state;
  }
}

/** The first factor of a sign-in a second factor completes: a password, or an identity provider's sign-in. */
export type FirstFactor = 'pwd' | 'oauth';

/**
 * Step-up: whether a token (its `amr` and `auth_time`) proved a second factor (a code, or a passkey with user
 * verification) within `maxAgeSeconds` before `at`.
 * What a password change, a factor's removal, new recovery codes and signing out everywhere ask of an account with
 * a factor.
 */
export const steppedUp = (amr: readonly string[], authTime: Date | null, at: Date, maxAgeSeconds: number): boolean =>
  (amr.includes('otp') || amr.includes('webauthn')) && authTime !== null && at.getTime() - authTime.getTime() <= maxAgeSeconds * 1000;
