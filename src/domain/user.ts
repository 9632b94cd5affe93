import type { DomainEvent } from './domain-event.js';
import type { MailEvent } from './mail-events.js';
import type { RevocationReason, SessionEvent } from './session.js';
import { Email } from './email.js';
import { PersonName } from './person-name.js';
import type { NewDeviceSignedIn } from './device.js';

/** The events the User aggregate records; `SignInFailed` also exists without an account (aggregateId null). */
/** The address changed (and is proven): `email` is the new one. */
export type EmailChanged = DomainEvent<'EmailChanged', { readonly email: string; readonly previousEmail: string }>;
/**
 * The previous address took the account back with the link of the notice it got after a change of address: `email`
 * is the restored address, `revertedFrom` the one the change had moved it to.
 */
export type EmailChangeReverted = DomainEvent<'EmailChangeReverted', { readonly email: string; readonly revertedFrom: string }>;
export type UserRegistered = DomainEvent<'UserRegistered', { readonly email: string }>;
export type UserSignedIn = DomainEvent<'UserSignedIn', { readonly email: string }>;
export type PasswordRehashed = DomainEvent<'PasswordRehashed', { readonly email: string }>;
export type ProfileChanged = DomainEvent<'ProfileChanged', { readonly email: string }>;
export type PasswordChanged = DomainEvent<'PasswordChanged', { readonly email: string }>;
/** `wrong_code`: a wrong second-factor code (or recovery code) after the right password. */
export type SignInFailureReason = 'unknown_email' | 'wrong_password' | 'wrong_current_password' | 'wrong_code';
export type SignInFailed = DomainEvent<'SignInFailed', { readonly email: string; readonly reason: SignInFailureReason }>;
/** Why every session of an account (but perhaps the caller's) ended at once. */
export type SessionsEndedReason = Extract<RevocationReason, 'sign_out' | 'password_changed' | 'email_verified' | 'email_change_cancelled' | 'email_change_reverted' | 'admin'>;
export type SessionsEnded = DomainEvent<
  'SessionsEnded',
  { readonly email: string; readonly reason: SessionsEndedReason; readonly keptSessionId: string | null }
>;

/**
 * The owner of the address took the account back: a password reset proved the address for the first time, so every
 * way in the account gathered before the proof (passkeys, the second factor with its recovery codes; later provider
 * identities and keys) is removed in the same commit as the new password, and a notice goes to the address.
 */
export type CredentialsRemoved = DomainEvent<'CredentialsRemoved', { readonly email: string; readonly reason: 'address_proven_by_reset' }>;

/** Why an account whose address nobody proved was deleted: its mailbox said "not me", or nobody proved it in time. */
export type SignUpCancelReason = 'not_me' | 'unverified_expired';
/**
 * An unverified account deleted with everything that named it: pseudonymous (its aggregate id, a random UUID, and
 * the reason; no address, no name), the one trace its sign-up leaves in the log.
 */
export type SignUpCancelled = DomainEvent<'SignUpCancelled', { readonly reason: SignUpCancelReason }>;
/**
 * The owner deleted the account: pseudonymous (its aggregate id, a random UUID; no address, no name), the one trace
 * the account leaves in the log once it is erased with everything that named it.
 */
export type AccountDeleted = DomainEvent<'AccountDeleted', Readonly<Record<string, never>>>;
/** An operator disabled the account (every session ended, every sign-in refused) or enabled it again. */
export type AccountDisabled = DomainEvent<'AccountDisabled', { readonly email: string }>;
export type AccountEnabled = DomainEvent<'AccountEnabled', { readonly email: string }>;
/**
 * The notice of a deletion, to the address the account had (proven by its owner): the one event of an erased account
 * that names it. Recorded with AccountDeleted, sealed under the service's key (the account's is destroyed in the same
 * commit) and removed from the log as soon as its mail is sent.
 */
export type AccountDeletionNoticed = DomainEvent<'AccountDeletionNoticed', { readonly email: string; readonly name: string }>;

export type UserEvent =
  | UserRegistered
  | EmailChanged
  | EmailChangeReverted
  | NewDeviceSignedIn
  | SignUpCancelled
  | AccountDeleted
  | AccountDisabled
  | AccountEnabled
  | AccountDeletionNoticed
  | CredentialsRemoved
  | UserSignedIn
  | PasswordRehashed
  | ProfileChanged
  | PasswordChanged
  | SignInFailed
  | SessionsEnded
  | SessionEvent
  | MailEvent;
export type UserEventType = UserEvent['type'];

export const signInFailed = (
  email: string,
  reason: SignInFailureReason,
  aggregateId: string | null,
  occurredAt: Date,
): SignInFailed => ({ type: 'SignInFailed', aggregateId, occurredAt, payload: { email, reason } });

/** The persisted shape of a user: what a repository stores and gives back. */
export interface UserSnapshot {
  readonly id: string;
  readonly name: string;
  readonly lastname: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly createdAt: Date;
  /** Absent in records written before verification existed: read as false. */
  readonly emailVerified?: boolean;
  /**
   * Moves on by one each time every session of the account ends at once (`endSessions`); a session is live only while
   * its own epoch is this one. Absent in records written before epochs existed: 0.
   */
  readonly sessionEpoch?: number;
  /** Set by an operator (the admin API): no session opens. Absent in records written before it existed: false. */
  readonly disabled?: boolean;
  /**
   * Optimistic concurrency: the stored version this state was loaded at (0 for a new user; absent in records written
   * before versions existed, read as 0). A save against another stored version is refused, so no change is lost.
   */
  readonly version?: number;
}

export interface Registration {
  readonly id: string;
  readonly name: PersonName;
  readonly lastname: PersonName;
  readonly email: Email;
  /** The password's hash; '' for an account made by a provider's sign-in, which has none until a reset gives it one. */
  readonly passwordHash: string;
  readonly at: Date;
  /** Whether the address is proven at birth (a provider said `email_verified`); false for a sign-up. */
  readonly emailVerified?: boolean;
}

/** The account aggregate. Records an event for every change; the events are pulled exactly once. */
export class User {
  private pending: UserEvent[] = [];
  private stateChanged = false;

  private constructor(
    readonly id: string,
    private givenName: PersonName,
    private familyName: PersonName,
    private address: Email,
    private hash: string,
    readonly createdAt: Date,
    private verified: boolean,
    private epoch: number,
    /** The stored version this state was loaded at; a save is a compare-and-swap against it. */
    readonly version: number,
    private off = false,
  ) {}

  static register(registration: Registration): User {
    const { id, name, lastname, email, passwordHash, at, emailVerified = false } = registration;
    const user = new User(id, name, lastname, email, passwordHash, at, emailVerified, 0, 0);
    user.pending.push({ type: 'UserRegistered', aggregateId: id, occurredAt: at, payload: { email: email.value } });
    if (emailVerified) user.pending.push({ type: 'EmailVerified', aggregateId: id, occurredAt: at, payload: { email: email.value } });
    return user;
  }

  static restore(snapshot: UserSnapshot): User {
    return new User(
      snapshot.id,
      PersonName.fromTrusted(snapshot.name),
      PersonName.fromTrusted(snapshot.lastname),
      Email.fromTrusted(snapshot.email),
      snapshot.passwordHash,
      snapshot.createdAt,
      snapshot.emailVerified ?? false,
      snapshot.sessionEpoch ?? 0,
      snapshot.version ?? 0,
      snapshot.disabled ?? false,
    );
  }

  get name(): PersonName {
    return this.givenName;
  }

  get email(): Email {
    return this.address;
  }

  /**
   * Moves the account to an address whose owner just confirmed it (the link mailed to it): the address is proven by
   * that, so the account is verified; records EmailChanged. Every link mailed before (reset, verification, the
   * change's own) is bound to the old address and stops working. The repository swaps the unique claim.
   */
  changeEmail(newEmail: Email, at: Date): void {
    const previousEmail = this.address.value;
    this.address = newEmail;
    this.stateChanged = true;
    this.pending.push({ type: 'EmailChanged', aggregateId: this.id, occurredAt: at, payload: { email: newEmail.value, previousEmail } });
    this.verifyEmail(at);
  }

  /**
   * Moves the account back to the address a change left (its revert link proved that mailbox): verified; records
   * EmailChangeReverted, never EmailChanged, so the address it leaves gets no revert link. The repository swaps the claim.
   */
  revertEmail(previousEmail: Email, at: Date): void {
    const revertedFrom = this.address.value;
    this.address = previousEmail;
    this.stateChanged = true;
    this.pending.push({ type: 'EmailChangeReverted', aggregateId: this.id, occurredAt: at, payload: { email: previousEmail.value, revertedFrom } });
    this.verifyEmail(at);
  }

  /**
   * Whether the state changed since it was loaded (a sign-in changes none: it only records events). A save moves the
   * stored version on only then, so sign-ins never refuse one another, while any change refuses a stale sign-in.
   */
  get changed(): boolean {
    return this.stateChanged;
  }

  /** The version a store records when it saves this user: one more than loaded when the state changed, else the same. */
  get nextVersion(): number {
    return this.stateChanged ? this.version + 1 : this.version;
  }

  get lastname(): PersonName {
    return this.familyName;
  }

  /** Changes the name and last name; records ProfileChanged only when something changed. */
  changeProfile(name: PersonName, lastname: PersonName, at: Date): void {
    if (name.value === this.givenName.value && lastname.value === this.familyName.value) return;
    this.givenName = name;
    this.familyName = lastname;
    this.stateChanged = true;
    this.pending.push({ type: 'ProfileChanged', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value } });
  }

  get passwordHash(): string {
    return this.hash;
  }

  /** False for an account made by a provider's sign-in until a reset sets a password: a password sign-in then fails as a wrong one. */
  get hasPassword(): boolean {
    return this.hash !== '';
  }

  recordSignIn(at: Date): void {
    this.pending.push({ type: 'UserSignedIn', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value } });
  }

  recordFailedSignIn(at: Date, reason: 'wrong_password' | 'wrong_current_password' = 'wrong_password'): void {
    this.pending.push(signInFailed(this.email.value, reason, this.id, at));
  }

  /** Sets a new password hash chosen by the owner; records PasswordChanged. */
  changePassword(newHash: string, at: Date): void {
    this.hash = newHash;
    this.stateChanged = true;
    this.pending.push({ type: 'PasswordChanged', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value } });
  }

  get emailVerified(): boolean {
    return this.verified;
  }

  /** Asks for a verification mail; `binding` is the keyed fingerprint its token is bound to. */
  requestEmailVerification(binding: string, at: Date): void {
    this.pending.push({ type: 'EmailVerificationRequested', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value, binding } });
  }

  /** Marks the address as proven; records EmailVerified once. */
  verifyEmail(at: Date): void {
    if (this.verified) return;
    this.verified = true;
    this.stateChanged = true;
    this.pending.push({ type: 'EmailVerified', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value } });
  }

  /**
   * Sets a password chosen through a reset link; records PasswordReset (which sends a notice). The link came to the
   * address, so its use proves the mailbox: the address is verified too (EmailVerified, once). Whoever signed up
   * with someone else's address loses the account to the mailbox's owner, whole: when this is the address's first
   * proof, CredentialsRemoved says that every way in gathered before it goes (the repository removes them in the same
   * commit), and the caller ends every session. A reset of a verified account keeps its owner's factor and passkeys.
   */
  resetPassword(newHash: string, at: Date): void {
    this.hash = newHash;
    this.stateChanged = true;
    this.pending.push({ type: 'PasswordReset', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value } });
    if (!this.verified) {
      this.pending.push({ type: 'CredentialsRemoved', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value, reason: 'address_proven_by_reset' } });
    }
    this.verifyEmail(at);
  }

  rehashPassword(newHash: string, at: Date): void {
    this.hash = newHash;
    this.stateChanged = true;
    this.pending.push({ type: 'PasswordRehashed', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value } });
  }

  /** The epoch of the account's live sessions: a session of another epoch ended (see `endSessions`). */
  get sessionEpoch(): number {
    return this.epoch;
  }

  /**
   * Ends every session of the account at once, in the account's own write: the epoch moves on, so every session of
   * the old one is no longer live, however many there are (one write, not one per session); records SessionsEnded.
   * `keptSessionId`, the caller's session that stays (sign-out `others`, a password change), is then carried into
   * the new epoch by the caller (`Session.carryInto`), in the same commit.
   */
  endSessions(reason: SessionsEndedReason, at: Date, keptSessionId: string | null): void {
    this.epoch += 1;
    this.stateChanged = true;
    this.pending.push({ type: 'SessionsEnded', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value, reason, keptSessionId } });
  }

  /**
   * Cancels the sign-up of an account whose address nobody proved (the mailbox's owner said "not me", or the
   * unverified account outlived its time): records SignUpCancelled, which names neither the address nor the person;
   * the repository then erases the account. Returns false, recording nothing, for a verified account, which only its
   * owner may close.
   */
  cancelSignUp(reason: SignUpCancelReason, at: Date): boolean {
    if (this.verified) return false;
    this.stateChanged = true;
    this.pending.push({ type: 'SignUpCancelled', aggregateId: this.id, occurredAt: at, payload: { reason } });
    return true;
  }

  /**
   * The owner deletes the account: records AccountDeleted, which names neither the address nor the person, and, where
   * the address was proven, the notice mailed to it; the repository then erases the account with everything that named
   * it (User.cancelSignUp's erase, for any account).
   */
  /** Whether an operator disabled the account: then no way in opens a session. */
  get disabled(): boolean {
    return this.off;
  }

  /** An operator disables the account: every session ends at once, no sign-in opens one. False when it was already. */
  disable(at: Date): boolean {
    if (this.off) return false;
    this.off = true;
    this.pending.push({ type: 'AccountDisabled', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value } });
    this.endSessions('admin', at, null);
    return true;
  }

  /** An operator enables the account again (its sessions stay ended). False when it was not disabled. */
  enable(at: Date): boolean {
    if (!this.off) return false;
    this.off = false;
    this.stateChanged = true;
    this.pending.push({ type: 'AccountEnabled', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value } });
    return true;
  }

  delete(at: Date): void {
    this.stateChanged = true;
    this.pending.push({ type: 'AccountDeleted', aggregateId: this.id, occurredAt: at, payload: {} });
    if (this.emailVerified) this.pending.push({ type: 'AccountDeletionNoticed', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value, name: this.name.value } });
  }

  /** Returns the events recorded since the last call, and forgets them. */
  pullEvents(): UserEvent[] {
    const events = this.pending;
    this.pending = [];
    return events;
  }

  snapshot(): UserSnapshot {
    return {
      id: this.id,
      name: this.name.value,
      lastname: this.lastname.value,
      email: this.email.value,
      passwordHash: this.hash,
      createdAt: this.createdAt,
      emailVerified: this.verified,
      sessionEpoch: this.epoch,
      ...(this.off ? { disabled: true } : {}),
      version: this.version,
    };
  }
}
