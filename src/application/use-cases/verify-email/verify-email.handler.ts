import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import type { MailSettings } from '../../policies/mail.js';
import { endAllSessions } from '../../policies/sessions.js';
import { type AccountResource, recordEvents, toAccountResource } from '../../shared/auth-result.js';
import { redeemUnverified } from '../../shared/one-time-token.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

export interface VerifyEmailCommand {
  readonly token: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Proves the address from the link of the verification mail. With REQUIRE_VERIFIED_EMAIL, every session opened before
 * ends: they were opened before anyone proved the address (perhaps by someone who signed up with another's address
 * and waits for its owner to click), so the owner signs in afresh.
 */
export class VerifyEmailHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'sessions' | 'oneTimeTokens' | 'clock' | 'ids'>,
    private readonly settings: MailSettings,
  ) {}

  /** Throws InvalidInput on `token` when it is invalid, expired or already used (the address is verified). */
  async execute(command: VerifyEmailCommand): Promise<AccountResource> {
    return untilCommitted(async () => {
      const user = await redeemUnverified(this.deps, command.token, this.settings.verificationTtlSeconds);
      const at = this.deps.clock.now();
      user.verifyEmail(at);
      if (this.settings.requireVerifiedEmail) endAllSessions(user, 'email_verified', at, null);
      return (await this.deps.users.save(user, recordEvents(user.pullEvents(), this.deps.ids, command.metadata))) ? toAccountResource(user) : CHANGED;
    });
  }
}
