import { EmailAlreadyRegistered } from '../../../../domain/domain-error.js';
import { Email } from '../../../../domain/email.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { EmailChangePorts } from '../../ports/email-change-ports.js';
import type { MailSettings } from '../../../policies/mail.js';
import { type AccountResource, recordEvents, toAccountResource } from '../../../shared/auth-result.js';
import { redeemEmailChange, refusedLink } from '../../email-change-token.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';

export interface ConfirmEmailChangeCommand {
  readonly token: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Confirms a change of address with the link mailed to the new address (POST /auth/email/confirm): the account moves
 * to it at once, verified, in one commit that moves the address's unique claim, so of two accounts moving to one
 * address exactly one wins (the other's link is refused like a spent one, telling nothing of the winner). Every link
 * mailed to the old address (reset, verification, this change's cancel) stops working; linked identities stay.
 */
export class ConfirmEmailChangeHandler {
  constructor(
    private readonly deps: Pick<EmailChangePorts, 'users' | 'emailChanges' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly mail: MailSettings,
  ) {}

  /** Throws InvalidInput on `token` (unknown, spent, expired, outlived by another change, or the address taken). */
  async execute(command: ConfirmEmailChangeCommand): Promise<AccountResource> {
    const { users, clock, ids } = this.deps;
    return untilCommitted(async () => {
      const { user, pending } = await redeemEmailChange(this.deps, 'email-change', command.token, this.mail.verificationTtlSeconds);
      user.changeEmail(Email.fromTrusted(pending.newEmail), clock.now());
      try {
        if (!(await users.save(user, recordEvents(user.pullEvents(), ids, command.metadata)))) return CHANGED;
      } catch (error) {
        if (error instanceof EmailAlreadyRegistered) throw refusedLink();
        throw error;
      }
      return toAccountResource(user);
    });
  }
}
