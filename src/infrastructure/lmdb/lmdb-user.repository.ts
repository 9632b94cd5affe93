import { inject, injectable } from 'inversify';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { UserNotFound } from '../../application/errors.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import { EmailAlreadyRegistered } from '../../domain/domain-error.js';
import { User } from '../../domain/user.js';
import { LmdbStore, type StoredUser } from './lmdb-store.js';

const toStored = (user: User): StoredUser => {
  const snapshot = user.snapshot();
  return { ...snapshot, createdAt: snapshot.createdAt.getTime() };
};

@injectable()
export class LmdbUserRepository implements UserRepository {
  constructor(@inject(LmdbStore) private readonly store: LmdbStore) {}

  async findByEmail(email: string): Promise<User | null> {
    const id = this.store.userIdsByEmail.get(email);
    return id === undefined ? null : this.findById(id);
  }

  async findById(id: string): Promise<User | null> {
    const stored = await Promise.resolve(this.store.users.get(id));
    return stored ? User.restore({ ...stored, createdAt: new Date(stored.createdAt) }) : null;
  }

  async add(user: User, events: readonly RecordedEvent[]): Promise<void> {
    const stored = toStored(user);
    const added = await this.store.transaction(() => {
      if (this.store.userIdsByEmail.doesExist(stored.email) || this.store.users.doesExist(stored.id)) return false;
      void this.store.users.put(stored.id, stored);
      void this.store.userIdsByEmail.put(stored.email, stored.id);
      this.store.appendEventsInTransaction(events);
      return true;
    });
    if (!added) throw new EmailAlreadyRegistered();
  }

  async save(user: User, events: readonly RecordedEvent[]): Promise<void> {
    const stored = toStored(user);
    const saved = await this.store.transaction(() => {
      if (!this.store.users.doesExist(stored.id)) return false;
      void this.store.users.put(stored.id, stored);
      this.store.appendEventsInTransaction(events);
      return true;
    });
    if (!saved) throw new UserNotFound(user.id);
  }
}
