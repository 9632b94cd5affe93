import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { Ports } from '../../ports/ports.js';
import { recordEvents } from '../../shared/auth-result.js';
import { bindingOf } from '../../shared/one-time-token.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

export interface ResendVerificationCommand {
  readonly userId: string;
  readonly metadata: RequestMetadata;
}

/** Asks for another verification mail for the signed-in account; nothing when it is already verified. */
export class ResendVerificationHandler {
  constructor(private readonly deps: Pick<Ports, 'users' | 'oneTimeTokens' | 'clock' | 'ids'>) {}

  async execute(command: ResendVerificationCommand): Promise<void> {
    await untilCommitted(async () => {
      const user = await this.deps.users.findById(command.userId);
      if (!user || user.emailVerified) return;
      user.requestEmailVerification(bindingOf(this.deps.oneTimeTokens, 'verify', user), this.deps.clock.now());
      return (await this.deps.users.save(user, recordEvents(user.pullEvents(), this.deps.ids, command.metadata))) ? undefined : CHANGED;
    });
  }
}

