import type { Clock } from '../../../ports/clock.port.js';
import type { ClientRegistration, OidcClients, RegisteredClient } from '../../ports/oidc-clients.port.js';

/** Registers an app with the OpenID provider (`npm run admin -- create-client`): its id, and its secret once. */
export class CreateClientHandler {
  constructor(private readonly deps: { readonly clients: OidcClients; readonly clock: Clock }) {}

  /** Throws InvalidInput when the engine refuses the app's metadata. */
  execute(command: ClientRegistration): Promise<RegisteredClient> {
    return this.deps.clients.register(command, this.deps.clock.now());
  }
}
