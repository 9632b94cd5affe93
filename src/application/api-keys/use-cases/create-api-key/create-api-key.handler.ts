import { type ApiKey, parseKeyName, parseScopes } from '../../../../domain/api-keys/api-key.js';
import { type ApiKeyResource, toApiKeyResource } from '../../api-key-resource.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { ApiKeyPorts } from '../../ports/api-key-ports.js';

export interface CreateApiKeyCommand {
  readonly name: string;
  /** A comma-separated list of scopes (`users:read,users:write,introspect`). */
  readonly scopes: string;
  readonly metadata: RequestMetadata;
}

/**
 * Makes an API key (`npm run admin -- create-key`): returns it whole once, with what the list shows; the store keeps
 * its keyed hash only. Records ApiKeyCreated (id, name, scopes). Throws InvalidInput naming `name` or `scopes`.
 */
export class CreateApiKeyHandler {
  constructor(private readonly deps: Pick<ApiKeyPorts, 'apiKeys' | 'apiKeySecrets' | 'clock' | 'ids'>) {}

  async execute(command: CreateApiKeyCommand): Promise<ApiKeyResource & { readonly key: string }> {
    const { apiKeys, apiKeySecrets, clock, ids } = this.deps;
    const name = parseKeyName(command.name);
    const scopes = parseScopes(command.scopes);
    const made = apiKeySecrets.newKey();
    const key: ApiKey = { id: made.id, name, scopes, secretHash: made.secretHash, createdAt: clock.now(), revokedAt: null };
    const payload = { keyId: key.id, name, scopes };
    await apiKeys.add(key, [{ type: 'ApiKeyCreated', aggregateId: null, occurredAt: key.createdAt, payload, eventId: ids.next(), metadata: { ...command.metadata, actor: 'cli' } }]);
    return { ...toApiKeyResource(key), key: made.key };
  }
}
