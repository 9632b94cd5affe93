import type { UserView } from '../../ports/user-read-model.port.js';
import type { Principal } from '../../shared/principal.js';

export interface GetCurrentUserQuery {
  /** Who the request speaks for, as authentication found it: its session live, its account read with it. */
  readonly principal: Principal;
}

/**
 * The account a bearer request speaks for. Authentication read its view with the session (an account that no longer
 * exists has no live session: InvalidToken there), so this reads nothing again. Writes nothing.
 */
export class GetCurrentUserHandler {
  execute(query: GetCurrentUserQuery): Promise<UserView> {
    return Promise.resolve(query.principal.account);
  }
}
