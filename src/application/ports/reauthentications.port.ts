import { token } from '../di-token.js';

/** What a holder's proof is made for (proveHolder): a re-authentication's code serves only the action it names. */
export const REAUTH_ACTIONS = ['link-identity', 'change-email', 'delete-account', 'enrol-totp', 'add-passkey'] as const;
export type ReauthAction = (typeof REAUTH_ACTIONS)[number];

/** What a re-authentication's code must have been made for: this session of this account, in its epoch, for this action. */
export interface ReauthenticationFor {
  readonly userId: string;
  readonly sessionId: string;
  readonly epoch: number;
  readonly action: ReauthAction;
}

/**
 * The holder of an account without a password proving themselves by a sign-in made elsewhere for this request (a
 * provider's re-authentication, POST /auth/oauth/{provider}/reauthenticate): the one way the core's holder proof
 * knows it. The social sign-in capability provides it; without it every such code is refused.
 */
export interface Reauthentications {
  /**
   * Spends the one-time `code` (by this first attempt, right verifier or not) and says whether it proves `expected`:
   * `code` when it is unknown, spent, expired or made for another session, account, epoch or action; `verifier`
   * when `verifier` is not the one whose S256 the re-authentication was started with; `proved` otherwise.
   */
  redeem(code: string, verifier: string, expected: ReauthenticationFor): Promise<'proved' | 'code' | 'verifier'>;
}

export const REAUTHENTICATIONS = token<Reauthentications>('Reauthentications');
