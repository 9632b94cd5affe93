import type { UserEvent } from './domain-event.js';
import { signInFailed } from './domain-event.js';
import { Email } from './email.js';
import { PersonName } from './person-name.js';

/** The persisted shape of a user: what a repository stores and gives back. */
export interface UserSnapshot {
  readonly id: string;
  readonly name: string;
  readonly lastname: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly createdAt: Date;
}

export interface Registration {
  readonly id: string;
  readonly name: PersonName;
  readonly lastname: PersonName;
  readonly email: Email;
  readonly passwordHash: string;
  readonly at: Date;
}

/** The account aggregate. Records an event for every change; the events are pulled exactly once. */
export class User {
  private pending: UserEvent[] = [];

  private constructor(
    readonly id: string,
    readonly name: PersonName,
    readonly lastname: PersonName,
    readonly email: Email,
    private hash: string,
    readonly createdAt: Date,
  ) {}

  static register(registration: Registration): User {
    const { id, name, lastname, email, passwordHash, at } = registration;
    const user = new User(id, name, lastname, email, passwordHash, at);
    user.pending.push({ type: 'UserRegistered', aggregateId: id, occurredAt: at, payload: { email: email.value } });
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
    );
  }

  get passwordHash(): string {
    return this.hash;
  }

  recordSignIn(at: Date): void {
    this.pending.push({ type: 'UserSignedIn', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value } });
  }

  recordFailedSignIn(at: Date): void {
    this.pending.push(signInFailed(this.email.value, 'wrong_password', this.id, at));
  }

  rehashPassword(newHash: string, at: Date): void {
    this.hash = newHash;
    this.pending.push({ type: 'PasswordRehashed', aggregateId: this.id, occurredAt: at, payload: { email: this.email.value } });
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
    };
  }
}
