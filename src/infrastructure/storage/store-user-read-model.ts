import type { UserReadModel, UserView } from '../../application/ports/user-read-model.port.js';
import { ACCOUNT_VIEWS } from './account-tables.js';
import type { Store } from './store.js';

/** Public user views from the account views (ACCOUNT_VIEWS), which hold no hash: one record read. */
export class StoreUserReadModel implements UserReadModel {
  constructor(private readonly store: Store) {}

  async findById(id: string): Promise<UserView | null> {
    const stored = await this.store.get(ACCOUNT_VIEWS, id);
    if (!stored) return null;
    const { name, lastname, email, emailVerified } = stored.value;
    return { id, name, lastname, email, emailverified: emailVerified };
  }
}
