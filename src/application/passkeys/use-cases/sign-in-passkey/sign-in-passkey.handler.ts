import { signedInWithPasskey } from '../../../../domain/passkeys/passkey.js';
import { recordedAsDeclared } from '../../events.js';
import { EmailNotVerified, PasskeyRejected } from '../../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { PasskeysPorts } from '../../ports/passkeys-ports.js';
import { provePasskey } from '../../policies/passkeys.js';
import { type SessionSettings, signInSession } from '../../../policies/sessions.js';
import type { AuthResult } from '../../../shared/auth-result.js';

export interface SignInPasskeyCommand {
  /** What `navigator.credentials.get(...)` answered, as JSON; its challenge names the ceremony. */
  readonly response: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Signs in with a passkey and nothing typed: the assertion (provePasskey: its challenge single-use, its signature,
 * origin, RP ID, user verification and counter) names the account. The session's `amr` is ["webauthn"]: a passkey
 * with user verification is two factors in one, so it also passes step-up. SignedInWithPasskey.
 */
export class SignInPasskeyHandler {
  constructor(
    private readonly deps: Pick<PasskeysPorts, 'users' | 'sessionViews' | 'userViews' | 'sessions' | 'passkeys' | 'webauthn' | 'tokens' | 'refreshTokens' | 'clock' | 'ids'>,
    private readonly settings: SessionSettings,
    private readonly requireVerifiedEmail = false,
  ) {}

  async execute(command: SignInPasskeyCommand): Promise<AuthResult> {
    const passkey = await provePasskey(this.deps, command.response, null, command.metadata);
    const user = await this.deps.users.findById(passkey.userId);
    if (this.requireVerifiedEmail && user && !user.emailVerified) throw new EmailNotVerified();
    return signInSession(this.deps, this.settings, passkey.userId, {
      amr: ['webauthn'],
      metadata: command.metadata,
      refused: () => new PasskeyRejected('is from a passkey this account does not have (removed, or never registered here)'),
      record: (account, at) => recordedAsDeclared([signedInWithPasskey(account.id, account.email.value, passkey.id, at)], this.deps.ids, command.metadata),
    });
  }
}
