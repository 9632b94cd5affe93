import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { type MailSettings, atMailCap } from '../../policies/mail.js';
import { recordEvents } from '../../shared/auth-result.js';
import { bindingOf } from '../../shared/one-time-token.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

export interface ResendVerificationCommand {
  readonly userId: string;
  readonly metadata: RequestMetadata;
}

/**
 * Asks for another verification mail for the signed-in account. Nothing when it is already verified, or when the
 * address had `verificationPerAddress.max` verification mails in the window (the one sign-up sends included): the
 * same answer either way, so the service cannot be made to mail an address again and again.
 */
export class ResendVerificationHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'events' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly settings: MailSettings,
  ) {}

  async execute(command: ResendVerificationCommand): Promise<void> {
    await untilCommitted(async () => {
      const user = await this.deps.users.findById(command.userId);
      if (!user || user.emailVerified) return;
      const now = this.deps.clock.now();
      if (await atMailCap(this.deps.events, 'verify', user.email.value, this.settings.verificationPerAddress, now)) return;
      user.requestEmailVerification(bindingOf(this.deps.oneTimeTokens, 'verify', user), now);
      return (await this.deps.users.save(user, recordEvents(user.pullEvents(), this.deps.ids, command.metadata))) ? undefined : CHANGED;
    });
  }
}

