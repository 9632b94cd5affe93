import { Email } from '../../../domain/email.js';
import { requireAll } from '../../../domain/validation.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { type MailSettings, mailLimit } from '../../policies/mail.js';
import { recordEvents } from '../../shared/auth-result.js';
import { bindingOf } from '../../shared/one-time-token.js';

/** The signed-in account (the bearer form), or an address as typed (the form with no token). */
export type ResendVerificationCommand =
  | { readonly userId: string; readonly metadata: RequestMetadata }
  | { readonly email: unknown; readonly metadata: RequestMetadata };

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

  /**
   * By address (no token): the same work and answer whether or not the address has an unverified account (one account
   * read, one write that counts the request against the address's cap and records the request if there is one to
   * record), so the answer tells nothing. Throws InvalidInput for a malformed address only.
   */
  async execute(command: ResendVerificationCommand): Promise<void> {
    const { users, limits, oneTimeTokens, clock, ids } = this.deps;
    const byAddress = 'email' in command;
    const address = byAddress ? requireAll({ email: Email.parse(command.email) }).email.value : null;
    const user = address === null ? await users.findById((command as { userId: string }).userId) : await users.findByEmail(address);
    const now = clock.now();
    if (!user || user.emailVerified) {
      if (address !== null) await limits.take(mailLimit(this.settings.verificationPerAddress, 'verify', address), now, []);
      return;
    }
    user.requestEmailVerification(bindingOf(oneTimeTokens, 'verify', user), now);
    const requested = recordEvents(user.pullEvents(), ids, command.metadata);
    await limits.take(mailLimit(this.settings.verificationPerAddress, 'verify', user.email.value), now, requested);
  }
}
