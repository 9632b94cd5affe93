import type { Ports } from '../../ports/ports.js';
import { type HolderProof, proveHolder } from '../../policies/holder.js';
import type { MfaSettings } from '../../policies/second-factor.js';
import type { SessionSettings } from '../../policies/sessions.js';
import { recordEvents } from '../../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

/**
 * The owner deletes the account (DELETE /auth/me), proving they hold it now as for a credential change (the password,
 * or a recent sign-in without one; the step-up with a second factor), but whether or not the address is proven. One
 * commit erases it with everything its tables' declarations say is the account's: every session ends, passkeys,
 * factors, identities, pending mails, a pending change of address and every event that names it go, and the address
 * is free for a new sign-up; one-time links die with it. The log keeps only AccountDeleted, pseudonymous, recorded
 * with the request id alone (no address, no client IP, no user agent).
 */
export class DeleteAccountHandler {
  constructor(
    private readonly deps: Pick<Ports, 'mfa' | 'reauthentications' | 'authenticators' | 'users' | 'sessions' | 'events' | 'limits' | 'hasher' | 'clock' | 'ids'>,
    private readonly settings: { readonly sessions: SessionSettings; readonly mfa: MfaSettings },
  ) {}

  /** Throws what proveHolder throws (StepUpRequired, RecentSignInRequired, InvalidInput on `currentpassword`, InvalidToken). */
  async execute(command: HolderProof): Promise<void> {
    const { users, clock, ids } = this.deps;
    await untilCommitted(async () => {
      const user = await proveHolder(this.deps, this.settings, command, 'delete-account', false);
      user.delete(clock.now());
      const events = recordEvents(user.pullEvents(), ids, { requestId: command.metadata.requestId, clientIp: null, userAgent: null });
      return (await users.erase(user, events)) ? undefined : CHANGED;
    });
  }
}
