import type { Ports } from '../../ports/ports.js';
import { type AdminCommand, adminMetadata, adminTarget } from '../../shared/admin.js';
import { recordEvents } from '../../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

/** An operator ends every session of an account at once (SessionsEnded, reason admin): their tokens get 401. Throws UserNotFound. */
export class AdminSignOutUserHandler {
  constructor(private readonly deps: Pick<Ports, 'users' | 'clock' | 'ids'>) {}

  async execute(command: AdminCommand): Promise<void> {
    const { users, clock, ids } = this.deps;
    await untilCommitted(async () => {
      const user = await adminTarget(users, command);
      user.endSessions('admin', clock.now(), null);
      return (await users.save(user, recordEvents(user.pullEvents(), ids, adminMetadata(command)))) ? undefined : CHANGED;
    });
  }
}
