import { PlainPassword } from '../../../domain/password.js';
import { requireAll } from '../../../domain/validation.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import type { MailSettings } from '../../policies/mail.js';
import { uncommon } from '../../policies/password-policy.js';
import { endAllSessions } from '../../policies/sessions.js';
import { type AccountResource, recordEvents, toAccountResource } from '../../shared/auth-result.js';
import { redeem } from '../../shared/one-time-token.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

export interface ConfirmPasswordResetCommand {
  readonly token: unknown;
  readonly newPassword: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Sets a new password from a reset link; every session of the account ends, and so does a pending change of address
 * (its links stop working: the address's owner takes the account back whole); a notice mail follows (PasswordReset).
 * Stored like a password change (the hash and the end of every session in one compare-and-swap write of the account,
 * so a sign-in that raced it is ended too); a password changed meanwhile kills the link (it is bound to the hash).
 */
export class ConfirmPasswordResetHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'pendingChanges' | 'sessions' | 'hasher' | 'blocklist' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly settings: MailSettings,
  ) {}

  /** Throws InvalidInput listing `token` (invalid, expired or used) and `newpassword` (the sign-up rules) together. */
  async execute(command: ConfirmPasswordResetCommand): Promise<AccountResource> {
    const { users, hasher, blocklist, clock, ids } = this.deps;
    let newHash: string | null = null;
    return untilCommitted(async () => {
      const account = await redeem(this.deps, 'reset', command.token, this.settings.resetTtlSeconds);
      const email = account.ok ? account.value.email : null;
      const { user, password } = requireAll({
        user: account,
        password: uncommon(blocklist, PlainPassword.choose(command.newPassword, email, 'newpassword'), 'newpassword'),
      });
      newHash ??= await hasher.hash(password);
      const at = clock.now();
      user.resetPassword(newHash, at);
      endAllSessions(user, 'password_changed', at, null);
      const ended = await this.deps.pendingChanges.endedByNewPassword(user, at, command.metadata);
      if (!(await users.save(user, [...recordEvents(user.pullEvents(), ids, command.metadata), ...ended]))) return CHANGED;
      return toAccountResource(user);
    });
  }
}
