import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import type { MailSettings } from '../../policies/mail.js';
import { recordEvents } from '../../shared/auth-result.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

/** Who erased them, as the events record it: the service itself, no client. */
const SWEEP: RequestMetadata = { requestId: 'sweep:unverified-accounts', clientIp: null, userAgent: null };

/**
 * Erases the accounts whose address nobody proved within `unverifiedAccountTtlSeconds`, as "not me" erases one
 * (SignUpCancelled, reason `unverified_expired`): a squatted address comes free by itself. Each erasure is its own
 * compare-and-swap, so an account verified meanwhile is kept. Returns how many it erased (at most `limit`).
 */
export class SweepUnverifiedAccountsHandler {
  constructor(
    private readonly deps: Pick<Ports, 'users' | 'clock' | 'ids'>,
    private readonly settings: Pick<MailSettings, 'unverifiedAccountTtlSeconds'>,
  ) {}

  async execute(limit: number): Promise<number> {
    const ttl = this.settings.unverifiedAccountTtlSeconds ?? 0;
    if (ttl <= 0) return 0;
    const cutoff = new Date(this.deps.clock.now().getTime() - ttl * 1000);
    let erased = 0;
    for (const id of await this.deps.users.unverifiedBefore(cutoff, limit)) {
      const done = await untilCommitted(async () => {
        const user = await this.deps.users.findById(id);
        if (!user || user.snapshot().createdAt.getTime() >= cutoff.getTime() || !user.cancelSignUp('unverified_expired', this.deps.clock.now())) return false;
        return (await this.deps.users.erase(user, recordEvents(user.pullEvents(), this.deps.ids, SWEEP))) ? true : CHANGED;
      });
      if (done) erased += 1;
    }
    return erased;
  }
}
