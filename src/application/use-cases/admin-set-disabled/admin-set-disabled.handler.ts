import type { Ports } from '../../ports/ports.js';
import { type AdminCommand, type AdminUserResource, adminMetadata, adminTarget } from '../../shared/admin.js';
import { recordEvents, toAccountResource } from '../../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

/**
 * An operator disables an account (every session ends at once; every way in then answers as a wrong credential would)
 * or enables it again (its sessions stay ended). Idempotent: disabling a disabled account records nothing. The events
 * (AccountDisabled with SessionsEnded, or AccountEnabled) name the key as their actor. Throws UserNotFound.
 */
export class AdminSetDisabledHandler {
  constructor(private readonly deps: Pick<Ports, 'users' | 'clock' | 'ids'>) {}

  async execute(command: AdminCommand & { readonly disabled: boolean }): Promise<AdminUserResource> {
    const { users, clock, ids } = this.deps;
    return untilCommitted(async () => {
      const user = await adminTarget(users, command);
      const changed = command.disabled ? user.disable(clock.now()) : user.enable(clock.now());
      if (changed && !(await users.save(user, recordEvents(user.pullEvents(), ids, adminMetadata(command))))) return CHANGED;
      return { ...toAccountResource(user), disabled: user.disabled };
    });
  }
}
