import { identityUnlinked } from '../../../../domain/social-sign-in/identity.js';
import { InvalidToken, LastSignInMethod } from '../../../errors.js';
import { IdentityNotFound } from '../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { SocialSignInPorts } from '../../ports/social-sign-in-ports.js';
import { type MfaSettings, requireStepUp } from '../../../policies/second-factor.js';
import { recordedAsDeclared } from '../../events.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';
import type { Principal } from '../../../shared/principal.js';

export interface UnlinkIdentityCommand {
  readonly principal: Principal;
  readonly id: string;
  readonly metadata: RequestMetadata;
}

/**
 * Unlinks one of the caller's provider identities (step-up first when the account has a second factor): it signs in
 * no more. Refused (LastSignInMethod) when it would leave the account no way to sign in: no password, no passkey, no
 * other identity, decided in the commit that removes it, so simultaneous unlinks and passkey removals never leave
 * none. IdentityUnlinked.
 */
export class UnlinkIdentityHandler {
  constructor(
    private readonly deps: Pick<SocialSignInPorts, 'mfa' | 'users' | 'identities' | 'clock' | 'ids'>,
    private readonly mfa: MfaSettings,
  ) {}

  /** Throws StepUpRequired, IdentityNotFound (another account's identity looks the same), LastSignInMethod. */
  async execute(command: UnlinkIdentityCommand): Promise<void> {
    const { users, identities, clock, ids } = this.deps;
    await requireStepUp(this.deps, this.mfa, command.principal);
    const user = await users.findById(command.principal.userId);
    if (!user) throw new InvalidToken();
    await untilCommitted(async () => {
      const identity = await identities.findOwn(user.id, command.id);
      if (!identity) throw new IdentityNotFound();
      const events = recordedAsDeclared([identityUnlinked(identity, user.email.value, clock.now())], ids, command.metadata);
      const outcome = await identities.remove(identity, events);
      if (outcome === 'last') throw new LastSignInMethod();
      return outcome === 'removed' ? undefined : CHANGED;
    });
  }
}
