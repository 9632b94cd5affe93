import { EmailAlreadyRegistered } from '../../../../domain/domain-error.js';
import { Email } from '../../../../domain/email.js';
import { EMAIL_CHANGE_REVERT_SECONDS, type RevertibleEmailChange } from '../../../../domain/email-change/email-change.js';
import { passwordResetRequested } from '../../../../domain/mail-events.js';
import type { User } from '../../../../domain/user.js';
import { rawText, requireAll } from '../../../../domain/validation.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { EmailChangePorts } from '../../ports/email-change-ports.js';
import { recordEvents } from '../../../shared/auth-result.js';
import { refusedLink } from '../../email-change-token.js';
import { bindingOf } from '../../../shared/one-time-token.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';

export interface RevertEmailChangeCommand {
  readonly token: unknown;
  readonly metadata: RequestMetadata;
}

type Deps = Pick<EmailChangePorts, 'users' | 'emailChanges' | 'oneTimeTokens' | 'clock' | 'ids'>;

/**
 * "My address was taken" (POST /auth/email/revert), with the link of the notice mailed to the previous address once a
 * change was confirmed, within EMAIL_CHANGE_REVERT_SECONDS: in one commit the account moves back to that address
 * (verified: its mailbox just proved itself; the unique claim moves back, compare-and-swap), every session ends, any
 * pending change ends, and a password reset link leaves for the restored address, since whoever moved the account may
 * know the password. EmailChangeReverted, SessionsEnded (`email_change_reverted`), PasswordResetRequested.
 */
export class RevertEmailChangeHandler {
  constructor(private readonly deps: Deps) {}

  /** Throws InvalidInput on `token` (unknown, spent, expired, the address moved again, or the previous address taken). */
  async execute(command: RevertEmailChangeCommand): Promise<void> {
    const { users, oneTimeTokens, clock, ids } = this.deps;
    await untilCommitted(async () => {
      const { user, change } = await this.redeem(command.token);
      const at = clock.now();
      user.revertEmail(Email.fromTrusted(change.previousEmail), at);
      user.endSessions('email_change_reverted', at, null);
      const reset = passwordResetRequested(user.email.value, user.id, bindingOf(oneTimeTokens, 'reset', user), at);
      try {
        return (await users.save(user, recordEvents([...user.pullEvents(), reset], ids, command.metadata))) ? undefined : CHANGED;
      } catch (error) {
        if (error instanceof EmailAlreadyRegistered) throw refusedLink();
        throw error;
      }
    });
  }

  /**
   * The account and its revertible change a revert link was mailed for: valid only for that very change (issued when
   * it was made, bound to the address it moved to and the one it left), while the account is still on that address,
   * and younger than EMAIL_CHANGE_REVERT_SECONDS. Throws InvalidInput on `token` (the same issue for every refusal).
   */
  private async redeem(raw: unknown): Promise<{ readonly user: User; readonly change: RevertibleEmailChange }> {
    const { users, emailChanges, oneTimeTokens, clock } = this.deps;
    const { token } = requireAll({ token: rawText('token', raw === '' ? undefined : raw) });
    const claim = oneTimeTokens.read(token);
    if (!claim || claim.purpose !== 'email-revert') throw refusedLink();
    const user = await users.findById(claim.userId);
    const change = user && (await emailChanges.revertibleOf(user.id));
    if (!user || !change || change.email !== user.email.value || change.changedAt.getTime() !== claim.issuedAt.getTime()) throw refusedLink();
    const binding = oneTimeTokens.bindingFor('email-revert', { id: user.id, email: change.email, previousEmail: change.previousEmail, passwordHash: '' });
    const age = clock.now().getTime() - claim.issuedAt.getTime();
    if (!oneTimeTokens.matches(token, binding) || age < 0 || age > EMAIL_CHANGE_REVERT_SECONDS * 1000) throw refusedLink();
    return { user, change };
  }
}
