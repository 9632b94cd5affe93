import { inject, injectable } from 'inversify';
import { type UserView, toUserView } from '../../application/commands/auth-result.js';
import type { UserReadModel } from '../../application/queries/user-read-model.port.js';
import { USER_REPOSITORY, type UserRepository } from '../../application/ports/user-repository.port.js';

/** The user read model served straight from the write-side repository: works over every storage adapter. */
@injectable()
export class RepositoryUserReadModel implements UserReadModel {
  constructor(@inject(USER_REPOSITORY) private readonly users: UserRepository) {}

  async findById(id: string): Promise<UserView | null> {
    const user = await this.users.findById(id);
    return user ? toUserView(user) : null;
  }
}
