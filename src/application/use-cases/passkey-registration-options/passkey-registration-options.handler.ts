import { PasskeyRejected } from '../../errors.js';
import { PASSKEYS_PER_ACCOUNT_MAX } from '../../ports/passkey-repository.port.js';
import type { Ports } from '../../ports/ports.js';
import { CEREMONY_SECONDS } from '../../policies/passkeys.js';
import { type MfaSettings, requireStepUp } from '../../policies/second-factor.js';
import type { Principal } from '../../shared/principal.js';

export interface PasskeyRegistrationOptionsCommand {
  readonly principal: Principal;
}

/**
 * Options for `navigator.credentials.create` (a discoverable credential, user verification required, the account's
 * passkeys excluded), their challenge stored for one registration by this account. Step-up first when the account
 * has a second factor: a stolen password-only session cannot add a way in.
 */
export class PasskeyRegistrationOptionsHandler {
  constructor(
    private readonly deps: Pick<Ports, 'passkeys' | 'secondFactors' | 'webauthn' | 'clock'>,
    private readonly mfa: MfaSettings,
  ) {}

  async execute(command: PasskeyRegistrationOptionsCommand): Promise<Readonly<Record<string, unknown>>> {
    const { passkeys, webauthn, clock } = this.deps;
    await requireStepUp(this.deps, this.mfa, command.principal);
    // The account's public view, as authentication read it with the session: no second read, never the aggregate.
    const user = command.principal.account;
    const existing = await passkeys.listByUser(user.id);
    if (existing.length >= PASSKEYS_PER_ACCOUNT_MAX) throw new PasskeyRejected(`cannot be added: an account holds at most ${PASSKEYS_PER_ACCOUNT_MAX} passkeys`);
    const ceremony = await webauthn.registrationOptions({ id: user.id, name: user.email, displayName: `${user.name} ${user.lastname}` }, existing.map((passkey) => passkey.snapshot()));
    const expiresAt = new Date(clock.now().getTime() + CEREMONY_SECONDS * 1000);
    await passkeys.openChallenge({ challenge: ceremony.challenge, purpose: 'registration', userId: user.id, expiresAt });
    return ceremony.options;
  }
}
