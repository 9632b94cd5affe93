import type { DomainEvent } from '../domain-event.js';
import { CONTROL_CHARACTERS, type Parsed, hasLoneSurrogate, invalid, valid } from '../validation.js';

/** A passkey registered to an account (its id and name, never its key). */
export type PasskeyAdded = DomainEvent<'PasskeyAdded', { readonly email: string; readonly passkeyId: string; readonly name: string }>;
export type PasskeyRemoved = DomainEvent<'PasskeyRemoved', { readonly email: string; readonly passkeyId: string }>;
/** A sign-in with a passkey and no password (or a passkey answering a second-factor challenge). */
export type SignedInWithPasskey = DomainEvent<'SignedInWithPasskey', { readonly email: string; readonly passkeyId: string }>;
/**
 * An assertion whose signature counter did not move past the stored one: the private key may have been copied (a
 * clone). Recorded, and the sign-in refused.
 */
export type PasskeyCounterRegressed = DomainEvent<'PasskeyCounterRegressed', { readonly email: string; readonly passkeyId: string }>;

export type PasskeyEvent = PasskeyAdded | PasskeyRemoved | SignedInWithPasskey | PasskeyCounterRegressed;

const event = <T extends PasskeyEvent['type']>(type: T, userId: string, at: Date, payload: Extract<PasskeyEvent, { type: T }>['payload']) =>
  ({ type, aggregateId: userId, occurredAt: at, payload }) as Extract<PasskeyEvent, { type: T }>;

export const passkeyAdded = (userId: string, email: string, passkeyId: string, name: string, at: Date) => event('PasskeyAdded', userId, at, { email, passkeyId, name });
export const passkeyRemoved = (userId: string, email: string, passkeyId: string, at: Date) => event('PasskeyRemoved', userId, at, { email, passkeyId });
export const signedInWithPasskey = (userId: string, email: string, passkeyId: string, at: Date) => event('SignedInWithPasskey', userId, at, { email, passkeyId });
export const passkeyCounterRegressed = (userId: string, email: string, passkeyId: string, at: Date) =>
  event('PasskeyCounterRegressed', userId, at, { email, passkeyId });

/** Names are what the owner reads in a list: trimmed, 1 to 64 characters, no control characters. */
export const PASSKEY_NAME_MAX_LENGTH = 64;

export interface PasskeySnapshot {
  /** The credential id (base64url), unique across every account. */
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  /** The COSE public key (base64url): public, yet only the account's own list ever shows the passkey. */
  readonly publicKey: string;
  /** The authenticator's signature counter as last seen (0 for authenticators that keep none). */
  readonly counter: number;
  readonly transports: readonly string[];
  /** Whether the credential is synced to other devices (multi-device) and backed up now. */
  readonly backedUp: boolean;
  readonly deviceType: 'singleDevice' | 'multiDevice';
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly version?: number;
}

/**
 * A WebAuthn credential of an account. What the domain owns is the counter rule: a counter that does not move past
 * the stored one (when either is non-zero) means a possible clone, and the assertion is refused.
 */
export class Passkey {
  private constructor(private state: PasskeySnapshot) {}

  static register(snapshot: Omit<PasskeySnapshot, 'lastUsedAt' | 'version'>): Passkey {
    return new Passkey({ ...snapshot, lastUsedAt: null, version: 0 });
  }

  static restore(snapshot: PasskeySnapshot): Passkey {
    return new Passkey(snapshot);
  }

  get id(): string {
    return this.state.id;
  }

  get userId(): string {
    return this.state.userId;
  }

  get counter(): number {
    return this.state.counter;
  }

  /**
   * An assertion verified at `at` reported `counter`: true, and the passkey is used (counter, backup state, last use);
   * false, changing nothing, when the counter went backwards or stood still while counting (a possible clone).
   */
  used(counter: number, backedUp: boolean, at: Date): boolean {
    if ((counter > 0 || this.state.counter > 0) && counter <= this.state.counter) return false;
    this.state = { ...this.state, counter, backedUp, lastUsedAt: at };
    return true;
  }

  rename(name: string): void {
    this.state = { ...this.state, name };
  }

  snapshot(): PasskeySnapshot {
    return { ...this.state };
  }
}

/** A WebAuthn ceremony in progress: its challenge, single-use, bound to its purpose (and, but for sign-in, to an account). */
export interface WebAuthnChallenge {
  /** The challenge (base64url) the options carried, as the client's `clientDataJSON` returns it. */
  readonly challenge: string;
  readonly purpose: 'registration' | 'authentication';
  /** The account a registration or a step-up is for; null for a sign-in with no e-mail typed. */
  readonly userId: string | null;
  readonly expiresAt: Date;
  readonly version?: number;
}

/** A passkey's name as its owner types it: trimmed, 1 to PASSKEY_NAME_MAX_LENGTH characters, no control characters; `fallback` when absent. */
export function parsePasskeyName(raw: unknown, fallback: string | null): Parsed<string> {
  if ((raw === undefined || raw === null) && fallback !== null) return valid(fallback);
  if (typeof raw !== 'string') return raw === undefined || raw === null ? invalid('name', 'REQUIRED', 'is required') : invalid('name', 'NOT_A_STRING', 'must be a string');
  const name = raw.trim();
  if (name.length === 0) return invalid('name', 'REQUIRED', 'must not be empty');
  if ([...name].length > PASSKEY_NAME_MAX_LENGTH) return invalid('name', 'TOO_LONG', `must be at most ${PASSKEY_NAME_MAX_LENGTH} characters`);
  if (CONTROL_CHARACTERS.test(name) || hasLoneSurrogate(name)) return invalid('name', 'INVALID_CHARACTERS', 'must not contain control characters');
  return valid(name);
}
