import type { PasskeysPorts } from '../../ports/passkeys-ports.js';
import { authenticationCeremony } from '../../policies/passkeys.js';
import type { Principal } from '../../../shared/principal.js';

export interface PasskeyAuthenticationOptionsQuery {
  /** The signed-in caller for a step-up (its passkeys listed, the challenge bound to it); null for a sign-in. */
  readonly principal: Principal | null;
}

/**
 * Options for `navigator.credentials.get`: with no account named (a sign-in with no e-mail typed, or the second
 * factor of a password sign-in) the browser offers the site's discoverable passkeys; for a signed-in caller, its own.
 * The challenge is stored for one answer, for a few minutes.
 */
export class PasskeyAuthenticationOptionsHandler {
  constructor(private readonly deps: Pick<PasskeysPorts, 'passkeys' | 'webauthn' | 'clock'>) {}

  async execute(query: PasskeyAuthenticationOptionsQuery): Promise<Readonly<Record<string, unknown>>> {
    return (await authenticationCeremony(this.deps, query.principal?.userId ?? null)).options;
  }
}
