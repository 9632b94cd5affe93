import type { IdentitySnapshot } from '../../../domain/social-sign-in/identity.js';
import type { RecordedEvent } from '../../ports/event-log.port.js';
import type { Limit } from '../../ports/attempt-limits.port.js';
import type { User } from '../../../domain/user.js';
import { token } from '../../di-token.js';

/** Provider identities one account lists at most. */
export const IDENTITIES_PER_ACCOUNT_MAX = 20;

/**
 * The provider identities linked to accounts (social sign-in, issue 52). Every write is one compare-and-swap commit
 * with its events: an (issuer, subject) is held by one account at most, whoever links it first.
 */
export interface IdentityRepository {
  /** The identity of this issuer and subject, whatever its account; null when none is linked. Read-only. */
  findBySubject(issuer: string, subject: string): Promise<IdentitySnapshot | null>;
  /** The account's identities, oldest first, at most IDENTITIES_PER_ACCOUNT_MAX. Read-only. */
  listByUser(userId: string): Promise<IdentitySnapshot[]>;
  /** The identity with this id if it is `userId`'s; null when none is (another account's looks the same). Read-only. */
  findOwn(userId: string, id: string): Promise<IdentitySnapshot | null>;
  /**
   * Links a new identity with its events: 'linked'; 'taken' (writing nothing) when its issuer and subject are linked
   * already, to any account, including by a simultaneous call; 'full' when the account holds
   * IDENTITIES_PER_ACCOUNT_MAX (decided in the commit). Not idempotent: a second add is 'taken'.
   */
  add(identity: IdentitySnapshot, events: readonly RecordedEvent[]): Promise<'linked' | 'taken' | 'full'>;
  /**
   * Makes the account `user` (as UserRepository.add does: its address claimed, `counted` added) with `identity` as its
   * first way in, in one commit: both are stored or neither. Throws EmailAlreadyRegistered, writing nothing, when the
   * address is an account's already or the identity was linked meanwhile (by a simultaneous call included).
   */
  addWithAccount(user: User, identity: IdentitySnapshot, events: readonly RecordedEvent[], counted: readonly Limit[]): Promise<void>;
  /**
   * Unlinks an identity at the version it was read at, with its events: 'removed'; 'changed' (writing nothing) when it
   * changed or went; 'last' when the account would keep no way in (no password, passkey or other identity), decided in
   * the commit, so simultaneous unlinks and passkey removals never leave none.
   */
  remove(identity: IdentitySnapshot, events: readonly RecordedEvent[]): Promise<'removed' | 'changed' | 'last'>;
}

export const IDENTITY_REPOSITORY = token<IdentityRepository>('IdentityRepository');
