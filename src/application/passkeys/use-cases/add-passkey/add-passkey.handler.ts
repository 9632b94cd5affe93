import { Passkey, parsePasskeyName, passkeyAdded } from '../../../../domain/passkeys/passkey.js';
import { requireAll } from '../../../../domain/validation.js';
import { InvalidToken, PasskeyRejected } from '../../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import { PASSKEYS_PER_ACCOUNT_MAX } from '../../ports/passkey-repository.port.js';
import type { PasskeysPorts } from '../../ports/passkeys-ports.js';
import { requireHolderStill } from '../../../policies/holder.js';
import { type PasskeyResource, toPasskeyResource } from '../../policies/passkeys.js';
import type { MfaSettings } from '../../../policies/second-factor.js';
import { recordedAsDeclared } from '../../events.js';
import type { Principal } from '../../../shared/principal.js';

export interface AddPasskeyCommand {
  readonly principal: Principal;
  /** What `navigator.credentials.create(...)` answered, as JSON. */
  readonly response: unknown;
  readonly name?: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Registers the passkey the browser created: its challenge must be an open registration challenge issued to this
 * account (taken: single use; a sign-in challenge is refused), and the answer must verify (origin, RP ID, user
 * verification). The credential id is held by one account only, and an account holds at most
 * PASSKEYS_PER_ACCOUNT_MAX, counted in the commit that stores it (of simultaneous registrations at one below the cap,
 * one is stored). The address and the step-up are checked again here (requireHolderStill): options taken before a
 * second factor was turned on do not register a passkey without it. PasskeyAdded (a notice mail), one commit.
 */
export class AddPasskeyHandler {
  constructor(
    private readonly deps: Pick<PasskeysPorts, 'mfa' | 'users' | 'passkeys' | 'webauthn' | 'clock' | 'ids'>,
    private readonly mfa: MfaSettings,
  ) {}

  async execute(command: AddPasskeyCommand): Promise<PasskeyResource> {
    const { users, passkeys, webauthn, clock, ids } = this.deps;
    const { name } = requireAll({ name: parsePasskeyName(command.name, 'Passkey') });
    await requireHolderStill(this.deps, this.mfa, command.principal);
    const user = await users.findById(command.principal.userId);
    if (!user) throw new InvalidToken();
    const claims = webauthn.claimsOf(command.response);
    if (!claims) throw new PasskeyRejected('must be the object navigator.credentials.create() answered (credential.toJSON())');
    const challenge = await passkeys.takeChallenge(claims.challenge, 'registration', clock.now());
    if (!challenge || challenge.userId !== user.id) {
      throw new PasskeyRejected('answers no open registration challenge of this account (unknown, used, expired, or of a sign-in): ask for new options');
    }
    const credential = await webauthn.verifyRegistration(command.response, challenge.challenge);
    const at = clock.now();
    const passkey = Passkey.register({ ...credential, userId: user.id, name, createdAt: at });
    const events = recordedAsDeclared([passkeyAdded(user.id, user.email.value, passkey.id, name, at)], ids, command.metadata);
    const outcome = await passkeys.add(passkey, events);
    if (outcome === 'taken') throw new PasskeyRejected('is registered already');
    if (outcome === 'full') throw new PasskeyRejected(`cannot be added: an account holds at most ${PASSKEYS_PER_ACCOUNT_MAX} passkeys`);
    return toPasskeyResource(passkey);
  }
}
