import { inject, injectable } from 'inversify';
import type { UserView } from '../commands/auth-result.js';
import { InvalidToken } from '../ports/invalid-token.js';
import { USER_READ_MODEL, type UserReadModel } from './user-read-model.port.js';

export interface GetCurrentUserQuery {
  /** The subject of a verified access token. */
  readonly userId: string;
}

/** Reads the account a verified token belongs to. Writes nothing. */
@injectable()
export class GetCurrentUserHandler {
  constructor(@inject(USER_READ_MODEL) private readonly users: UserReadModel) {}

  /** Returns the user resource; throws InvalidToken when the token's subject no longer exists. */
  async execute(query: GetCurrentUserQuery): Promise<UserView> {
    const user = await this.users.findById(query.userId);
    if (!user) throw new InvalidToken();
    return user;
  }
}
