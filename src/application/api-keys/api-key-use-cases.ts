import type { ApiKeyPorts } from './ports/api-key-ports.js';
import { type ApiKeyRateLimit, AuthenticateApiKeyHandler } from './use-cases/authenticate-api-key/authenticate-api-key.handler.js';
import { CreateApiKeyHandler } from './use-cases/create-api-key/create-api-key.handler.js';
import { ListApiKeysHandler } from './use-cases/list-api-keys/list-api-keys.handler.js';
import { RevokeApiKeyHandler } from './use-cases/revoke-api-key/revoke-api-key.handler.js';

export type { ApiKeyRateLimit } from './use-cases/authenticate-api-key/authenticate-api-key.handler.js';
export type { ApiKeyResource } from './api-key-resource.js';

/** The API keys' use cases: made and revoked by `npm run admin`, checked on every `/admin` and introspection request. */
export const apiKeyUseCases = (ports: ApiKeyPorts, limit: ApiKeyRateLimit) =>
  ({
    createApiKey: new CreateApiKeyHandler(ports),
    revokeApiKey: new RevokeApiKeyHandler(ports),
    listApiKeys: new ListApiKeysHandler(ports),
    authenticateApiKey: new AuthenticateApiKeyHandler(ports, limit),
  }) as const;

export type ApiKeyUseCases = ReturnType<typeof apiKeyUseCases>;
