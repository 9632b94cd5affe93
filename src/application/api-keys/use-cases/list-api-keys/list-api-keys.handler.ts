import type { ApiKeyPorts } from '../../ports/api-key-ports.js';
import { type ApiKeyResource, toApiKeyResource } from '../../api-key-resource.js';

/** Every API key, oldest first, revoked ones included (`npm run admin -- list-keys`): never a secret nor a hash. Writes nothing. */
export class ListApiKeysHandler {
  constructor(private readonly deps: Pick<ApiKeyPorts, 'apiKeys'>) {}

  async execute(): Promise<ApiKeyResource[]> {
    return (await this.deps.apiKeys.list()).map(toApiKeyResource);
  }
}
