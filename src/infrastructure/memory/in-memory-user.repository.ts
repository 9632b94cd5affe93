import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import { UserNotFound } from '../../application/errors.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import { EmailAlreadyRegistered } from '../../domain/domain-error.js';
import type { Session } from '../../domain/session.js';
import { User } from '../../domain/user.js';
import type { InMemoryStore } from './in-memory-store.js';

export class InMemoryUserRepository implements UserRepository {
  constructor(private readonly store: InMemoryStore) {}

  async findByEmail(email: string): Promise<User | null> {
    const id = this.store.userIdsByEmail.get(email);
    return id === undefined ? null : this.findById(id);
  }

  async findById(id: string): Promise<User | null> {
    const snapshot = await Promise.resolve(this.store.users.get(id));
    return snapshot ? User.restore(structuredClone(snapshot)) : null;
  }

  async add(user: User, events: readonly RecordedEvent[], opened?: Session): Promise<void> {
    await Promise.resolve();
    const snapshot = user.snapshot();
    if (this.store.userIdsByEmail.has(snapshot.email) || this.store.users.has(snapshot.id)) {
      throw new EmailAlreadyRegistered();
    }
    this.store.users.set(snapshot.id, structuredClone({ ...snapshot, version: 0 }));
    this.store.userIdsByEmail.set(snapshot.email, snapshot.id);
    if (opened) this.store.putSession(opened.snapshot());
    this.store.appendEvents(events);
  }

  async save(user: User, events: readonly RecordedEvent[], opened?: Session, changed: readonly Session[] = []): Promise<boolean> {
    await Promise.resolve();
    const stored = this.store.users.get(user.id);
    if (!stored) throw new UserNotFound(user.id);
    if ((stored.version ?? 0) !== user.version) return false;
    const changedSnapshots = changed.map((session) => session.snapshot());
    if (changedSnapshots.some((snapshot) => this.store.sessions.get(snapshot.id)?.version !== snapshot.version)) return false;
    this.store.users.set(user.id, structuredClone({ ...user.snapshot(), version: user.nextVersion }));
    if (opened) this.store.putSession(opened.snapshot());
    for (const snapshot of changedSnapshots) this.store.putSession({ ...snapshot, version: snapshot.version + 1 });
    this.store.appendEvents(events);
    return true;
  }
}
