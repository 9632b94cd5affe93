import type { UserReadModel, UserView } from '../../application/ports/user-read-model.port.js';
import type { InMemoryStore } from './in-memory-store.js';

/** Public user views straight from the in-memory state, the hash left where it is. */
export class InMemoryUserReadModel implements UserReadModel {
  constructor(private readonly store: InMemoryStore) {}

  async findById(id: string): Promise<UserView | null> {
    const user = await Promise.resolve(this.store.users.get(id));
    return user ? { id: user.id, name: user.name, lastname: user.lastname, email: user.email, emailverified: user.emailVerified ?? false } : null;
  }
}
