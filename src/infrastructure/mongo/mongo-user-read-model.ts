import type { UserReadModel, UserView } from '../../application/ports/user-read-model.port.js';
import type { MongoStore } from './mongo-store.js';

const PUBLIC_FIELDS = { _id: 1, name: 1, lastname: 1, email: 1, emailVerified: 1 } as const;

/** Public user views with a projection: the password hash never leaves the server for this query. */
export class MongoUserReadModel implements UserReadModel {
  constructor(private readonly store: MongoStore) {}

  async findById(id: string): Promise<UserView | null> {
    const doc = await this.store.guarded((signal) => this.store.users.findOne({ _id: id }, { projection: PUBLIC_FIELDS, signal }));
    return doc ? { id: doc._id, name: doc.name, lastname: doc.lastname, email: doc.email, emailverified: doc.emailVerified ?? false } : null;
  }
}
