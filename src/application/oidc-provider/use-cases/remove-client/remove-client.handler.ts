import { ClientNotFound } from '../../errors.js';
import type { OidcClients } from '../../ports/oidc-clients.port.js';

/** Removes an app from the OpenID provider (`npm run admin -- remove-client`): its codes and tokens stop working. */
export class RemoveClientHandler {
  constructor(private readonly deps: { readonly clients: OidcClients }) {}

  /** Throws ClientNotFound for an id no app has. */
  async execute(clientId: string): Promise<{ readonly removed: string }> {
    if (!(await this.deps.clients.remove(clientId))) throw new ClientNotFound();
    return { removed: clientId };
  }
}
