import { randomBytes } from 'node:crypto';
import type { ClientRegistration, ClientView, OidcClients, RegisteredClient } from '../../application/oidc-provider/ports/oidc-clients.port.js';
import { InvalidInput } from '../../domain/domain-error.js';
import { type Store, entryOf, remove } from '../storage/store.js';
import { OIDC_CLIENTS } from './oidc-tables.js';
import { type OidcPayload, type StoreOidcAdapter, lookupKey } from './store-oidc-adapter.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const NAME_MAX_LENGTH = 64;

/** The engine's check of a client's metadata (oidc-provider's `Client.validate`): it throws what it refuses. */
export type ClientValidator = (metadata: Record<string, unknown>) => Promise<void>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const viewOf = (payload: OidcPayload): ClientView => ({
  client_id: text(payload['client_id']),
  name: text(payload['client_name']),
  redirect_uris: (payload['redirect_uris'] as string[] | undefined) ?? [],
  post_logout_redirect_uris: (payload['post_logout_redirect_uris'] as string[] | undefined) ?? [],
  public: payload['token_endpoint_auth_method'] === 'none',
  first_party: payload['first_party'] === true,
  grant_types: (payload['grant_types'] as string[] | undefined) ?? [],
  created_at: text(payload['created_at']),
});

/**
 * The apps registered with the OpenID provider, kept by the engine's own storage (the Client model, its secret sealed)
 * so that the engine reads them as it reads any client; checked by the engine before they are kept.
 */
export class StoreOidcClients implements OidcClients {
  constructor(
    private readonly store: Store,
    private readonly clients: StoreOidcAdapter,
    private readonly validate: ClientValidator,
  ) {}

  async register(registration: ClientRegistration, at: Date): Promise<RegisteredClient> {
    const name = registration.name.trim();
    if (name.length === 0 || [...name].length > NAME_MAX_LENGTH) throw new InvalidInput([{ field: 'name', code: name.length === 0 ? 'REQUIRED' : 'TOO_LONG', message: `must be 1 to ${NAME_MAX_LENGTH} characters` }]);
    const clientId = randomBytes(16).toString('base64url');
    const secret = registration.public ? undefined : randomBytes(32).toString('base64url');
    const metadata = {
      client_id: clientId,
      client_name: name,
      redirect_uris: [...registration.redirectUris],
      post_logout_redirect_uris: [...registration.postLogoutRedirectUris],
      response_types: ['code'],
      grant_types: ['authorization_code', 'refresh_token', ...(registration.deviceGrant ? [DEVICE_GRANT] : [])],
      token_endpoint_auth_method: registration.public ? 'none' : 'client_secret_basic',
      ...(registration.public ? { application_type: 'native' } : {}),
      first_party: registration.firstParty,
      created_at: at.toISOString(),
      ...(secret === undefined ? {} : { client_secret: secret }),
    };
    try {
      await this.validate(metadata);
    } catch (error) {
      const description = (error as { error_description?: unknown }).error_description;
      const message = typeof description === 'string' ? description : error instanceof Error ? error.message : 'is refused';
      throw new InvalidInput([{ field: /redirect_uri/.test(message) ? 'redirect-uri' : 'client', code: 'INVALID_FORMAT', message }]);
    }
    await this.clients.upsert(clientId, metadata);
    return { ...viewOf(metadata), ...(secret === undefined ? {} : { client_secret: secret }) };
  }

  async list(): Promise<readonly ClientView[]> {
    const views: ClientView[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.store.range(OIDC_CLIENTS, 'all', { prefix: [], limit: 200, ...(after === undefined ? {} : { after }) });
      views.push(...page.map((stored) => viewOf(JSON.parse(stored.value.payload) as OidcPayload)));
      if (page.length < 200) break;
      const last = page[page.length - 1];
      if (last) after = entryOf([], last.key);
    }
    return views.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async remove(clientId: string): Promise<boolean> {
    const key = lookupKey('Client', clientId);
    const found = await this.store.get(OIDC_CLIENTS, key);
    if (!found) return false;
    return (await this.store.commit({ changes: [remove(OIDC_CLIENTS, key, found.version)] })).status === 'committed';
  }
}
