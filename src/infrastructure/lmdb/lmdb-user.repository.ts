import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { UserNotFound } from '../../application/errors.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import { EmailAlreadyRegistered } from '../../domain/domain-error.js';
import type { Session } from '../../domain/session.js';
import { User } from '../../domain/user.js';
import { toStoredSession } from './lmdb-session-table.js';
import type { LmdbStore, StoredUser } from './lmdb-store.js';

const toStored = (user: User, version: number): StoredUser => {
  const snapshot = user.snapshot();
  return { ...snapshot, createdAt: snapshot.createdAt.getTime(), version };
};

export class LmdbUserRepository implements UserRepository {
  constructor(private readonly store: LmdbStore) {}

  async findByEmail(email: string): Promise<User | null> {
    const id = this.store.userIdsByEmail.get(email);
    return id === undefined ? null : this.findById(id);
  }

  async findById(id: string): Promise<User | null> {
    const stored = await Promise.resolve(this.store.users.get(id));
    return stored ? User.restore({ ...stored, createdAt: new Date(stored.createdAt) }) : null;
  }

  async add(user: User, events: readonly RecordedEvent[], opened?: Session): Promise<void> {
    const stored = toStored(user, 0);
    const added = await this.store.transaction(() => {
      if (this.store.userIdsByEmail.doesExist(stored.email) || this.store.users.doesExist(stored.id)) return false;
      void this.store.users.put(stored.id, stored);
      void this.store.userIdsByEmail.put(stored.email, stored.id);
      this.putOpened(opened);
      this.store.appendEventsInTransaction(events);
      return true;
    });
    if (!added) throw new EmailAlreadyRegistered();
  }

  async save(user: User, events: readonly RecordedEvent[], opened?: Session, changed: readonly Session[] = []): Promise<boolean> {
    const stored = toStored(user, user.nextVersion);
    const changedSnapshots = changed.map((session) => session.snapshot());
    const outcome = await this.store.transaction(() => {
      const current = this.store.users.get(stored.id);
      if (!current) return 'missing';
      if ((current.version ?? 0) !== user.version) return 'changed';
      if (!this.store.sessionTable.swap(changedSnapshots)) return 'changed';
      void this.store.users.put(stored.id, stored);
      // The account's sessions ended at once: the sweep removes those of the older epochs, a batch at a time.
      if ((stored.sessionEpoch ?? 0) !== (current.sessionEpoch ?? 0)) void this.store.sessionTable.endedEpochs.put(stored.id, null);
      this.putOpened(opened);
      this.store.appendEventsInTransaction(events);
      return 'saved';
    });
    if (outcome === 'missing') throw new UserNotFound(user.id);
    return outcome === 'saved';
  }

  private putOpened(opened: Session | undefined): void {
    if (opened) this.store.sessionTable.put(toStoredSession(opened.snapshot(), opened.snapshot().version));
  }
}
