import type { Ports } from '../../ports/ports.js';
import type { ApiKeyRepository } from './api-key-repository.port.js';
import type { ApiKeySecrets } from './api-key-secrets.port.js';

/** What the API keys' use cases read: the capability's own ports and the core's they need. */
export interface ApiKeyPorts extends Pick<Ports, 'limits' | 'clock' | 'ids'> {
  readonly apiKeys: ApiKeyRepository;
  readonly apiKeySecrets: ApiKeySecrets;
}
