import { passkeyRemoved } from '../../../../domain/passkeys/passkey.js';
import { InvalidToken, LastSignInMethod } from '../../../errors.js';
import { PasskeyNotFound } from '../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { PasskeysPorts } from '../../ports/passkeys-ports.js';
import { type MfaSettings, requireStepUp } from '../../../policies/second-factor.js';
import { recordedAsDeclared } from '../../events.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';
import type { Principal } from '../../../shared/principal.js';

export interface RemovePasskeyCommand {
  readonly principal: Principal;
  readonly id: string;
  readonly metadata: RequestMetadata;
}

/**
 * Removes one of the caller's passkeys (step-up first when the account has a second factor): it signs in no more.
 * Refused when it is the account's last way to sign in (no password, no other passkey, no provider identity), decided
 * in the commit that removes it (simultaneous removals and unlinks never leave an account without one). PasskeyRemoved,
 * one commit.
 */
export class RemovePasskeyHandler {
  constructor(
    private readonly deps: Pick<PasskeysPorts, 'mfa' | 'users' | 'passkeys' | 'clock' | 'ids'>,
    private readonly mfa: MfaSettings,
  ) {}

  async execute(command: RemovePasskeyCommand): Promise<void> {
    const { users, passkeys, clock, ids } = this.deps;
    await requireStepUp(this.deps, this.mfa, command.principal);
    const user = await users.findById(command.principal.userId);
    if (!user) throw new InvalidToken();
    await untilCommitted(async () => {
      const passkey = await passkeys.find(command.id);
      if (!passkey || passkey.userId !== user.id) throw new PasskeyNotFound();
      const events = recordedAsDeclared([passkeyRemoved(user.id, user.email.value, passkey.id, clock.now())], ids, command.metadata);
      // The ways in left are counted in the commit that removes this one: of simultaneous removals, never one too many.
      const outcome = await passkeys.remove(passkey, events);
      if (outcome === 'last') throw new LastSignInMethod();
      return outcome === 'removed' ? undefined : CHANGED;
    });
  }
}
