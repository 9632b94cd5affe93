import { emailChangeCancelled } from '../../../../domain/email-change/email-change.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { EmailChangePorts } from '../../ports/email-change-ports.js';
import type { MailSettings } from '../../../policies/mail.js';
import { recordEvents } from '../../../shared/auth-result.js';
import { recordedAsDeclared } from '../../events.js';
import { redeemEmailChange } from '../../email-change-token.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';

export interface CancelEmailChangeCommand {
  readonly token: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * "This was not me" (POST /auth/email/cancel), with the link of the notice mailed to the current address: the pending
 * change goes (its confirmation link stops working) and every session of the account ends at once, the one that asked
 * for the change among them, in one commit. EmailChangeCancelled, SessionsEnded (`email_change_cancelled`).
 */
export class CancelEmailChangeHandler {
  constructor(
    private readonly deps: Pick<EmailChangePorts, 'users' | 'emailChanges' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly mail: MailSettings,
  ) {}

  /** Throws InvalidInput on `token` (unknown, spent, expired, or the change confirmed or cancelled already). */
  async execute(command: CancelEmailChangeCommand): Promise<void> {
    const { users, clock, ids } = this.deps;
    await untilCommitted(async () => {
      const { user, pending } = await redeemEmailChange(this.deps, 'email-cancel', command.token, this.mail.verificationTtlSeconds);
      const at = clock.now();
      user.endSessions('email_change_cancelled', at, null);
      const cancelled = recordedAsDeclared([emailChangeCancelled(user.id, user.email.value, pending.newEmail, at)], ids, command.metadata);
      return (await users.save(user, [...cancelled, ...recordEvents(user.pullEvents(), ids, command.metadata)])) ? undefined : CHANGED;
    });
  }
}
