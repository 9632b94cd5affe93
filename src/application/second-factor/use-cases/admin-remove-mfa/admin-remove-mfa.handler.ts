import { mfaRemoved } from '../../../../domain/second-factor/second-factor.js';
import { MfaNotEnrolled } from '../../../errors.js';
import type { SecondFactorPorts } from '../../ports/second-factor-ports.js';
import { type AdminCommand, adminMetadata, adminTarget } from '../../../shared/admin.js';
import { recordedAsDeclared } from '../../events.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';

/**
 * The lost-phone case (DELETE /admin/users/:id/mfa): an operator removes the account's TOTP factor and its recovery
 * codes, after checking who asks by their own means. MfaRemoved mails the owner, as when they remove it themselves.
 * Passkeys stay (the owner removes those). Throws UserNotFound, MfaNotEnrolled.
 */
export class AdminRemoveMfaHandler {
  constructor(private readonly deps: Pick<SecondFactorPorts, 'users' | 'secondFactors' | 'clock' | 'ids'>) {}

  async execute(command: AdminCommand): Promise<void> {
    const { users, secondFactors, clock, ids } = this.deps;
    const user = await adminTarget(users, command);
    await untilCommitted(async () => {
      const factor = await secondFactors.find(user.id);
      if (!factor) throw new MfaNotEnrolled();
      const events = recordedAsDeclared([mfaRemoved(user.id, user.email.value, clock.now())], ids, adminMetadata(command));
      return (await secondFactors.remove(factor, events)) ? undefined : CHANGED;
    });
  }
}
