import type { Ports } from '../../ports/ports.js';
import { type AdminCommand, adminMetadata, adminTarget } from '../../shared/admin.js';
import { recordEvents } from '../../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

/**
 * An operator deletes an account (DELETE /admin/users/:id): the owner's deletion (DELETE /auth/me) without the owner's
 * proof, the same erase and crypto-shredding, the same notice to a proven address; AccountDeleted names the key as its
 * actor. Throws UserNotFound.
 */
export class AdminDeleteUserHandler {
  constructor(private readonly deps: Pick<Ports, 'users' | 'clock' | 'ids'>) {}

  async execute(command: AdminCommand): Promise<void> {
    const { users, clock, ids } = this.deps;
    await untilCommitted(async () => {
      const user = await adminTarget(users, command);
      user.delete(clock.now());
      const events = recordEvents(user.pullEvents(), ids, adminMetadata(command));
      return (await users.erase(user, events)) ? undefined : CHANGED;
    });
  }
}
