import type { ApiKeyPorts } from './ports/api-key-ports.js';
import { type ApiKeyRateLimit, AuthenticateApiKeyHandler } from './use-cases/authenticate-api-key/authenticate-api-key.handler.js';
import { AuthenticateOperatorHandler } from './use-cases/authenticate-operator/authenticate-operator.handler.js';
import { CreateApiKeyHandler } from './use-cases/create-api-key/create-api-key.handler.js';
import { ListApiKeysHandler } from './use-cases/list-api-keys/list-api-keys.handler.js';
import { RevokeApiKeyHandler } from './use-cases/revoke-api-key/revoke-api-key.handler.js';
import { SetOperatorRoleHandler } from './use-cases/set-operator-role/set-operator-role.handler.js';

export type { ApiKeyRateLimit } from './use-cases/authenticate-api-key/authenticate-api-key.handler.js';
export type { ApiKeyResource } from './api-key-resource.js';
export type { OperatorRoleResult } from './use-cases/set-operator-role/set-operator-role.handler.js';
export { OPERATOR_SCOPES } from './use-cases/authenticate-operator/authenticate-operator.handler.js';

/** What the API keys' checks read of the configuration. */
export interface ApiKeySettings extends ApiKeyRateLimit {
  /** REQUIRE_VERIFIED_EMAIL, as the core's bearer check applies it to an operator's access token. */
  readonly requireVerifiedEmail: boolean;
}

/**
 * The API keys' use cases: made and revoked by `npm run admin`, checked on every `/admin` and introspection request
 * (`authenticateApiKey`: an API key, or else an operator's access token), and the operator role granted and revoked.
 */
export const apiKeyUseCases = (ports: ApiKeyPorts, settings: ApiKeySettings) => {
  const authenticateOperator = new AuthenticateOperatorHandler(ports, settings);
  return {
    createApiKey: new CreateApiKeyHandler(ports),
    revokeApiKey: new RevokeApiKeyHandler(ports),
    listApiKeys: new ListApiKeysHandler(ports),
    authenticateApiKey: new AuthenticateApiKeyHandler(ports, settings, authenticateOperator),
    authenticateOperator,
    setOperatorRole: new SetOperatorRoleHandler(ports),
  } as const;
};

export type ApiKeyUseCases = ReturnType<typeof apiKeyUseCases>;
