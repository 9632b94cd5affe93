import type { UserReadModel, UserView } from '../../application/ports/user-read-model.port.js';
import type { LmdbStore } from './lmdb-store.js';

/** Public user views read from the `users` database; only the public fields leave this adapter. */
export class LmdbUserReadModel implements UserReadModel {
  constructor(private readonly store: LmdbStore) {}

  async findById(id: string): Promise<UserView | null> {
    const user = await Promise.resolve(this.store.users.get(id));
    return user ? { id: user.id, name: user.name, lastname: user.lastname, email: user.email, emailverified: user.emailVerified ?? false } : null;
  }
}
