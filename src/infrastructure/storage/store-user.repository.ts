import type { Limit, LimitAt } from '../../application/ports/attempt-limits.port.js';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import { EmailAlreadyRegistered } from '../../domain/domain-error.js';
import type { Session } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import { ACCOUNT_VIEWS, EMAIL_CLAIM, ENDED_EPOCHS, SESSIONS, UNVERIFIED_ACCOUNTS, USERS, accountViewOf, sessionRecordOf, userOf, userRecordOf } from './account-tables.js';
import { ownerOf } from './commit-plan.js';
import { EVENTS, OUTBOX } from './event-tables.js';
import { CORE_SCHEMA, type Schema, removalsOf } from './ownership.js';
import { type Change, type Changes, type Store, check, put, remove } from './store.js';
import { ADDRESS_INDEX, addressIndexOf } from './address-index.js';

/** Accounts over the storage primitive, the same for every store: each save is one commit of the account, its sessions and events. */
export class StoreUserRepository implements UserRepository {
  constructor(
    private readonly store: Store,
    /** The composition's tables: what "remove every credential" and the erase walk. */
    private readonly schema: Schema = CORE_SCHEMA,
  ) {}

  async findByEmail(email: string): Promise<User | null> {
    const id = await ownerOf(this.store, EMAIL_CLAIM, email);
    return id === null ? null : this.findById(id);
  }

  async findById(id: string): Promise<User | null> {
    const stored = await this.store.get(USERS, id);
    return stored && userOf(stored);
  }

  async add(user: User, events: readonly RecordedEvent[], opened?: Session, counted: readonly Limit[] = []): Promise<void> {
    const outcome = await this.store.commit(accountMade(this.store, user, events, opened, counted));
    if (outcome.status !== 'committed') throw new EmailAlreadyRegistered();
  }

  async save(user: User, events: readonly RecordedEvent[], opened?: Session, changed: readonly Session[] = [], cleared: readonly LimitAt[] = []): Promise<boolean> {
    const record = userRecordOf(user);
    const ended: Change[] = [];
    let moved: string | null = null;
    if (user.changed) {
      const stored = await this.store.get(USERS, user.id);
      if (stored && (stored.value.sessionEpoch ?? 0) !== record.sessionEpoch) ended.push(put(ENDED_EPOCHS, user.id, { userId: user.id, epoch: record.sessionEpoch ?? 0 }, 'any'));
      if (stored && stored.value.email !== record.email) moved = stored.value.email;
    }
    const reindexed = moved === null ? [] : [await this.reindexed(user.id, record.email, record.createdAt.getTime())];
    const outcome = await this.store.commit({
      changes: [
        ...(user.changed ? [put(USERS, user.id, record, user.version), put(ACCOUNT_VIEWS, user.id, accountViewOf(record), 'any')] : [check(USERS, user.id, user.version)]),
        ...ended,
        ...reindexed,
        ...(events.some((event) => event.type === 'EmailVerified') ? [remove(UNVERIFIED_ACCOUNTS, user.id, 'any')] : []),
        // The account taken back by the owner of its address: every way in it gathered before goes in the same commit.
        ...(events.some((event) => event.type === 'CredentialsRemoved') ? await removalsOf(this.store, user.id, this.schema.credentialTables) : []),
        ...openedPut(opened),
        ...changed.map((session) => put(SESSIONS, session.id, sessionRecordOf(session), session.snapshot().version)),
      ],
      below: cleared.map(({ key, at, windowSeconds, max }) => ({ key, at: at.getTime(), windowMs: windowSeconds * 1000, max })),
      clears: cleared.map(({ key }) => key),
      // A change of address moves the account's unique claim: of two accounts moving to one address, one wins.
      ...(moved === null ? {} : { claims: [{ name: EMAIL_CLAIM, value: record.email, owner: user.id }], releases: [{ name: EMAIL_CLAIM, value: moved }] }),
      events,
    });
    if (outcome.status === 'taken') throw new EmailAlreadyRegistered();
    return outcome.status === 'committed';
  }

  async erase(user: User, events: readonly RecordedEvent[]): Promise<boolean> {
    const record = userRecordOf(user);
    const outcome = await this.store.commit({
      changes: [
        remove(USERS, user.id, user.version),
        // Every other record the tables' declarations say is the account's (Table.owner), found as each says.
        ...(await removalsOf(this.store, user.id, this.schema.tables.filter((table) => table !== USERS))),
        // Its sessions are owned by epoch: they end together as the epoch moves on, and the sweep removes them.
        put(ENDED_EPOCHS, user.id, { userId: user.id, epoch: (record.sessionEpoch ?? 0) + 1 }, 'any'),
      ],
      releases: [{ name: EMAIL_CLAIM, value: user.email.value }],
      events,
    });
    if (outcome.status !== 'committed') return false;
    // An event recorded for the account between the read above and the commit (one that moved no version): gone too.
    const late = await removalsOf(this.store, user.id, [EVENTS, OUTBOX], new Set(events.map((event) => event.eventId)));
    if (late.length > 0) await this.store.commit({ changes: late });
    return true;
  }

  /** The account's admin search entry for its new address, in the order it was listed (its sign-up when it was not). */
  private async reindexed(id: string, address: string, createdAt: number): Promise<Change> {
    const listedAt = (await this.store.get(ADDRESS_INDEX, id))?.value.listedAt ?? createdAt;
    return put(ADDRESS_INDEX, id, addressIndexOf(this.store, id, listedAt, address), 'any');
  }

  async unverifiedBefore(cutoff: Date, limit: number): Promise<string[]> {
    const oldest = await this.store.range(UNVERIFIED_ACCOUNTS, 'byCreation', { prefix: [], below: [cutoff.getTime()], limit });
    return oldest.map((account) => account.value.userId);
  }
}

const openedPut = (opened: Session | undefined): Change[] => (opened ? [put(SESSIONS, opened.id, sessionRecordOf(opened), null)] : []);

/**
 * The commit that makes an account: its record (only where none is), view, search entry, unverified marker, the session
 * it opens, its address's unique claim and the counts it adds. A capability that makes an account with a record of its
 * own (social sign-in: the identity it is made with) adds that change to this commit, so both are stored or neither.
 */
export function accountMade(store: Store, user: User, events: readonly RecordedEvent[], opened?: Session, counted: readonly Limit[] = []): Changes & { readonly changes: readonly Change[] } {
  const at = user.snapshot().createdAt.getTime();
  return {
    counts: counted.map((limit) => ({ key: limit.key, at, windowMs: limit.windowSeconds * 1000, max: Number.MAX_SAFE_INTEGER })),
    changes: [
      put(USERS, user.id, userRecordOf(user), null),
      put(ACCOUNT_VIEWS, user.id, accountViewOf(userRecordOf(user)), 'any'),
      put(ADDRESS_INDEX, user.id, addressIndexOf(store, user.id, at, user.email.value), 'any'),
      ...(user.emailVerified ? [] : [put(UNVERIFIED_ACCOUNTS, user.id, { userId: user.id, createdAt: at }, 'any')]),
      ...openedPut(opened),
    ],
    claims: [{ name: EMAIL_CLAIM, value: user.email.value, owner: user.id }],
    events,
  };
}
