import type { Ports } from '../../ports/ports.js';
import type { ApiKeyRepository } from './api-key-repository.port.js';
import type { ApiKeySecrets } from './api-key-secrets.port.js';
import type { OperatorRepository } from './operator-repository.port.js';

/**
 * What the API keys' use cases read: the capability's own ports and the core's they need (`users` to find an account
 * by its address, `verifier`, `sessionViews` for the core's check of an operator's access token).
 */
export interface ApiKeyPorts extends Pick<Ports, 'limits' | 'clock' | 'ids' | 'users' | 'verifier' | 'sessionViews'> {
  readonly apiKeys: ApiKeyRepository;
  readonly apiKeySecrets: ApiKeySecrets;
  readonly operators: OperatorRepository;
}
