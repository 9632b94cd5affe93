import type { Clock } from '../ports/clock.port.js';
import type { OidcClients } from './ports/oidc-clients.port.js';
import { CreateClientHandler } from './use-cases/create-client/create-client.handler.js';
import { ListClientsHandler } from './use-cases/list-clients/list-clients.handler.js';
import { RemoveClientHandler } from './use-cases/remove-client/remove-client.handler.js';

/** The OpenID provider's use cases: the apps it signs people in for, registered by an operator. */
export const oidcProviderUseCases = (ports: { readonly clients: OidcClients; readonly clock: Clock }) =>
  ({
    createClient: new CreateClientHandler(ports),
    listClients: new ListClientsHandler(ports),
    removeClient: new RemoveClientHandler(ports),
  }) as const;

export type OidcProviderUseCases = ReturnType<typeof oidcProviderUseCases>;
