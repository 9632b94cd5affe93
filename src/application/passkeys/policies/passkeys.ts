import type { Authenticators } from '../../ports/authenticators.port.js';
import { type Passkey, passkeyCounterRegressed } from '../../../domain/passkeys/passkey.js';
import { PasskeyRejected } from '../../errors.js';
import type { RequestMetadata } from '../../ports/event-log.port.js';
import type { PasskeysPorts } from '../ports/passkeys-ports.js';
import type { CeremonyOptions } from '../ports/webauthn.port.js';
import { recordedAsDeclared } from '../events.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';

/** What a passkey shows its owner: never its key. */
export interface PasskeyResource {
  readonly id: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly transports: readonly string[];
  readonly backedUp: boolean;
}

export const toPasskeyResource = (passkey: Passkey): PasskeyResource => {
  const { id, name, createdAt, lastUsedAt, transports, backedUp } = passkey.snapshot();
  return { id, name, createdAt, lastUsedAt, transports, backedUp };
};

/** How long a ceremony's challenge may be answered (the options' timeout too). */
export const CEREMONY_SECONDS = 300;

/**
 * Options for `navigator.credentials.get`, their challenge stored for one sign-in, step-up or second-factor answer.
 * `userId`: the signed-in account a step-up is for (its passkeys listed); null for a sign-in with no e-mail typed.
 */
export async function authenticationCeremony(deps: Pick<PasskeysPorts, 'passkeys' | 'webauthn' | 'clock'>, userId: string | null): Promise<CeremonyOptions> {
  const allow = userId === null ? [] : (await deps.passkeys.listByUser(userId)).map((passkey) => passkey.snapshot());
  const ceremony = await deps.webauthn.authenticationOptions(allow);
  const expiresAt = new Date(deps.clock.now().getTime() + CEREMONY_SECONDS * 1000);
  await deps.passkeys.openChallenge({ challenge: ceremony.challenge, purpose: 'authentication', userId, expiresAt });
  return ceremony;
}

/**
 * Checks a passkey assertion (`navigator.credentials.get(...)`, as JSON) end to end, and spends it: its challenge
 * must be an open sign-in challenge of this service (taken: single use; a registration challenge is refused), its
 * passkey known (and the account's, when `userId` is given or the challenge was issued to an account), its signature,
 * origin, RP ID and user verification right, and its counter past the stored one (else PasskeyCounterRegressed is
 * recorded and it is refused: a possible clone). The passkey's counter and last use are stored by compare-and-swap.
 * Returns the passkey; throws PasskeyRejected with the reason.
 */
export async function provePasskey(
  deps: Pick<PasskeysPorts, 'passkeys' | 'webauthn' | 'users' | 'clock' | 'ids'>,
  response: unknown,
  userId: string | null,
  metadata: RequestMetadata,
): Promise<Passkey> {
  const { passkeys, webauthn, clock, ids } = deps;
  const claims = webauthn.claimsOf(response);
  if (!claims) throw new PasskeyRejected('must be the object navigator.credentials.get() answered (credential.toJSON())');
  const challenge = await passkeys.takeChallenge(claims.challenge, 'authentication', clock.now());
  if (!challenge) throw new PasskeyRejected('answers no open sign-in challenge of this service (unknown, used, expired, or of a registration): ask for new options');
  const found = await passkeys.find(claims.credentialId);
  const owner = userId ?? challenge.userId;
  if (!found || (owner !== null && found.userId !== owner)) throw new PasskeyRejected('is from a passkey this account does not have (removed, or never registered here)');
  const verified = await webauthn.verifyAuthentication(response, challenge.challenge, found.snapshot());
  let regressed = false;
  const passkey = await untilCommitted(async () => {
    const current = await passkeys.find(found.id);
    if (!current) throw new PasskeyRejected('is from a passkey this account does not have (removed, or never registered here)');
    if (!current.used(verified.counter, verified.backedUp, clock.now())) {
      regressed = true;
      return current;
    }
    return (await passkeys.save(current, [])) ? current : CHANGED;
  });
  if (regressed) {
    const user = await deps.users.findById(passkey.userId);
    if (user) await passkeys.record(recordedAsDeclared([passkeyCounterRegressed(user.id, user.email.value, passkey.id, clock.now())], ids, metadata));
    throw new PasskeyRejected('has a signature counter that did not move on: the passkey may have been copied, so it is refused');
  }
  return passkey;
}

/**
 * The account's passkeys as the core's rules reach them (AUTHENTICATORS): a passkey answers a second-factor
 * challenge and step-up (`webauthn`), and proves the holder of an account without a password (provePasskey).
 */
export class PasskeyAuthenticators implements Authenticators {
  readonly method = 'webauthn' as const;

  constructor(private readonly deps: Pick<PasskeysPorts, 'passkeys' | 'webauthn' | 'users' | 'clock' | 'ids'>) {}

  async heldBy(userId: string): Promise<boolean> {
    return (await this.deps.passkeys.listByUser(userId)).length > 0;
  }

  async prove(answer: unknown, userId: string, metadata: RequestMetadata): Promise<void> {
    await provePasskey(this.deps, answer, userId, metadata);
  }
}
