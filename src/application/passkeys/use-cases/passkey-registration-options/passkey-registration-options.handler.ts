import { PasskeyRejected } from '../../../errors.js';
import { PASSKEYS_PER_ACCOUNT_MAX } from '../../ports/passkey-repository.port.js';
import type { PasskeysPorts } from '../../ports/passkeys-ports.js';
import { CEREMONY_SECONDS } from '../../policies/passkeys.js';
import { proveHolder } from '../../../policies/holder.js';
import type { MfaSettings } from '../../../policies/second-factor.js';
import type { SessionSettings } from '../../../policies/sessions.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { Principal } from '../../../shared/principal.js';

export interface PasskeyRegistrationOptionsCommand {
  readonly principal: Principal;
  /** The account's password, as the client sent it: adding a way in proves the holder now. */
  readonly currentPassword: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Options for `navigator.credentials.create` (a discoverable credential, user verification required, the account's
 * passkeys excluded), their challenge stored for one registration by this account. Guarded as every way in is
 * (proveHolder): a proven address, the current password, and a step-up when the account has a second factor, so a
 * copied access token alone cannot add a way in. The passkey's post checks the address and the step-up again.
 */
export class PasskeyRegistrationOptionsHandler {
  constructor(
    private readonly deps: Pick<PasskeysPorts, 'mfa' | 'reauthentications' | 'authenticators' | 'passkeys' | 'webauthn' | 'users' | 'sessions' | 'events' | 'limits' | 'hasher' | 'clock' | 'ids'>,
    private readonly settings: { readonly sessions: Pick<SessionSettings, 'passwordChangeMaxFailures' | 'lifetimes'>; readonly mfa: MfaSettings },
  ) {}

  async execute(command: PasskeyRegistrationOptionsCommand): Promise<Readonly<Record<string, unknown>>> {
    const { passkeys, webauthn, clock } = this.deps;
    await proveHolder(this.deps, this.settings, command, 'add-passkey');
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
