import type { ClientView, OidcClients } from '../../ports/oidc-clients.port.js';

/** Every app registered with the OpenID provider, never a secret (`npm run admin -- list-clients`). */
export class ListClientsHandler {
  constructor(private readonly deps: { readonly clients: OidcClients }) {}

  execute(): Promise<readonly ClientView[]> {
    return this.deps.clients.list();
  }
}
