import { token } from '../../di-token.js';

/** An app to register with the OpenID provider, as an operator describes it (`npm run admin -- create-client`). */
export interface ClientRegistration {
  readonly name: string;
  /** Where the provider may send the browser back with a code: each matched exactly. */
  readonly redirectUris: readonly string[];
  /** Where it may send the browser after a sign-out the app asked for (RP-initiated logout). */
  readonly postLogoutRedirectUris: readonly string[];
  /** A public client (a single-page, mobile or command-line app) holds no secret; PKCE stands for it. */
  readonly public: boolean;
  /** An app of the service's own: it asks no consent. */
  readonly firstParty: boolean;
  /** It may use the device flow (RFC 8628), a TV or a command line. */
  readonly deviceGrant: boolean;
}

/** A registered app as the provider and the operator see it; never its secret. */
export interface ClientView {
  readonly client_id: string;
  readonly name: string;
  readonly redirect_uris: readonly string[];
  readonly post_logout_redirect_uris: readonly string[];
  readonly public: boolean;
  readonly first_party: boolean;
  readonly grant_types: readonly string[];
  readonly created_at: string;
}

/** What a registration answers once: the view, and the secret of a confidential client (shown this once). */
export type RegisteredClient = ClientView & { readonly client_secret?: string };

/** The registered apps, kept where the engine reads them (their secrets sealed at rest). */
export interface OidcClients {
  /** Registers an app; InvalidInput when the engine refuses its metadata (a redirect URI, a name). */
  register(registration: ClientRegistration, at: Date): Promise<RegisteredClient>;
  /** Every registered app, oldest first. */
  list(): Promise<readonly ClientView[]>;
  /** Removes an app: its codes and tokens stop working. False when there is none with this id. */
  remove(clientId: string): Promise<boolean>;
}

export const OIDC_CLIENTS = token<OidcClients>('OidcClients');
