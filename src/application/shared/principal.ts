/**
 * Who an authenticated request speaks for: the account and the session its token belongs to, and what the token says
 * of how its holder proved who they are (`amr`, `auth_time`): what step-up reads.
 */
export interface Principal {
  readonly userId: string;
  readonly sessionId: string;
  readonly amr: readonly string[];
  readonly authTime: Date | null;
}
