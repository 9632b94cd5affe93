/** Who an authenticated request speaks for: the account and the session its token belongs to. */
export interface Principal {
  readonly userId: string;
  readonly sessionId: string;
}
