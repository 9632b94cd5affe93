import type { Ports } from '../../ports/ports.js';
import type { MfaStatus, UserView } from '../../ports/user-read-model.port.js';
import type { Principal } from '../../shared/principal.js';

export interface GetCurrentUserQuery {
  /** Who the request speaks for, as authentication found it: its session live, its account read with it. */
  readonly principal: Principal;
}

/** The account a bearer request speaks for, and its second factor's status (never a secret or a code). */
export interface CurrentUser {
  readonly user: UserView;
  readonly mfa: MfaStatus;
}

/**
 * The account a bearer request speaks for (GET /auth/me), one query: the user resource is the view authentication read
 * with the session (an account that no longer exists has no live session: InvalidToken there), so it is not read
 * again; the second factor's status is one record read by key through the read side, no aggregate. Writes nothing.
 */
export class GetCurrentUserHandler {
  constructor(private readonly deps: Pick<Ports, 'mfaStatus'>) {}

  async execute({ principal }: GetCurrentUserQuery): Promise<CurrentUser> {
    return { user: principal.account, mfa: await this.deps.mfaStatus.statusOf(principal.userId) };
  }
}
