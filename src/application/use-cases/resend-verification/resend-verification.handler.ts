import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { type MailSettings, mailLimit } from '../../policies/mail.js';
import { recordEvents } from '../../shared/auth-result.js';
import { bindingOf } from '../../shared/one-time-token.js';

export interface ResendVerificationCommand {
  readonly userId: string;
  readonly metadata: RequestMetadata;
}

/**
 * Asks for another verification mail for the signed-in account. Nothing when it is already verified, or when the
 * address had `verificationPerAddress.max` verification mails in the window (the one sign-up sends included): the
 * same answer either way, so the service cannot be made to mail an address again and again. The request is counted
 * in the write that records it, so simultaneous resends past the cap send nothing.
 */
export class ResendVerificationHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'limits' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly settings: MailSettings,
  ) {}

  async execute(command: ResendVerificationCommand): Promise<void> {
    const user = await this.deps.users.findById(command.userId);
    if (!user || user.emailVerified) return;
    const now = this.deps.clock.now();
    user.requestEmailVerification(bindingOf(this.deps.oneTimeTokens, 'verify', user), now);
    const requested = recordEvents(user.pullEvents(), this.deps.ids, command.metadata);
    await this.deps.limits.take(mailLimit(this.settings.verificationPerAddress, 'verify', user.email.value), now, requested);
  }
}
