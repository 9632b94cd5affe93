import { inject, injectable } from 'inversify';
import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { UserNotFound } from '../../application/errors.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import { EmailAlreadyRegistered } from '../../domain/domain-error.js';
import { User } from '../../domain/user.js';
import { InMemoryStore } from './in-memory-store.js';

@injectable()
export class InMemoryUserRepository implements UserRepository {
  constructor(@inject(InMemoryStore) private readonly store: InMemoryStore) {}

  async findByEmail(email: string): Promise<User | null> {
    const id = this.store.userIdsByEmail.get(email);
    return id === undefined ? null : this.findById(id);
  }

  async findById(id: string): Promise<User | null> {
    const snapshot = await Promise.resolve(this.store.users.get(id));
    return snapshot ? User.restore(structuredClone(snapshot)) : null;
  }

  async add(user: User, events: readonly RecordedEvent[]): Promise<void> {
    await Promise.resolve();
    const snapshot = user.snapshot();
    if (this.store.userIdsByEmail.has(snapshot.email) || this.store.users.has(snapshot.id)) {
      throw new EmailAlreadyRegistered();
    }
    this.store.users.set(snapshot.id, structuredClone(snapshot));
    this.store.userIdsByEmail.set(snapshot.email, snapshot.id);
    this.store.appendEvents(events);
  }

  async save(user: User, events: readonly RecordedEvent[]): Promise<void> {
    await Promise.resolve();
    if (!this.store.users.has(user.id)) throw new UserNotFound(user.id);
    this.store.users.set(user.id, structuredClone(user.snapshot()));
    this.store.appendEvents(events);
  }
}
