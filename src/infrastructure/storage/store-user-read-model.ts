import type { UserReadModel, UserView } from '../../application/ports/user-read-model.port.js';
import { USERS } from './account-tables.js';
import type { Store } from './store.js';

/** Public user views over the storage primitive: only the public fields leave this adapter. */
export class StoreUserReadModel implements UserReadModel {
  constructor(private readonly store: Store) {}

  async findById(id: string): Promise<UserView | null> {
    const stored = await this.store.get(USERS, id);
    if (!stored) return null;
    const { name, lastname, email, emailVerified } = stored.value;
    return { id, name, lastname, email, emailverified: emailVerified ?? false };
  }
}
