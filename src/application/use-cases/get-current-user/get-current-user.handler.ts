import { InvalidToken } from '../../errors.js';
import type { Ports } from '../../ports/ports.js';
import type { UserView } from '../../ports/user-read-model.port.js';

export interface GetCurrentUserQuery {
  /** The subject of a verified access token. */
  readonly userId: string;
}

/** Reads the account a verified token belongs to. Writes nothing. */
export class GetCurrentUserHandler {
  constructor(private readonly deps: Pick<Ports, 'userViews'>) {}

  /** Returns the user resource; throws InvalidToken when the token's subject no longer exists. */
  async execute(query: GetCurrentUserQuery): Promise<UserView> {
    const user = await this.deps.userViews.findById(query.userId);
    if (!user) throw new InvalidToken();
    return user;
  }
}
