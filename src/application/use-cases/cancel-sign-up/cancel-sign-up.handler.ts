import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import type { MailSettings } from '../../policies/mail.js';
import { recordEvents } from '../../shared/auth-result.js';
import { redeemUnverified } from '../../shared/one-time-token.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

export interface CancelSignUpCommand {
  readonly token: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * "Not me": the owner of an address someone signed up with answers the verification mail with its second action.
 * The link's token proves the mailbox, as confirming does; the unverified account is erased with everything that
 * named it (its sessions end, its events and pending mails go, the address is free for a new sign-up) and the log
 * keeps only a pseudonymous SignUpCancelled. A verified account is never erased this way: its token is refused.
 */
export class CancelSignUpHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly settings: MailSettings,
  ) {}

  /** Throws InvalidInput on `token` when it is invalid, expired or already used (the address is verified, or the account gone). */
  async execute(command: CancelSignUpCommand): Promise<void> {
    await untilCommitted(async () => {
      const user = await redeemUnverified(this.deps, command.token, this.settings.verificationTtlSeconds);
      user.cancelSignUp('not_me', this.deps.clock.now());
      return (await this.deps.users.erase(user, recordEvents(user.pullEvents(), this.deps.ids, command.metadata))) ? undefined : CHANGED;
    });
  }
}
