import type { UserView } from '../ports/user-read-model.port.js';

/**
 * Who an authenticated request speaks for: the account and the session its token belongs to, what the token says of
 * how its holder proved who they are (`amr`, `auth_time`: what step-up reads), and the account's public view as
 * authentication read it with the session, so that a query about the caller (`GET /auth/me`) reads it no second time.
 */
export interface Principal {
  readonly userId: string;
  readonly sessionId: string;
  readonly amr: readonly string[];
  readonly authTime: Date | null;
  readonly account: UserView;
}
