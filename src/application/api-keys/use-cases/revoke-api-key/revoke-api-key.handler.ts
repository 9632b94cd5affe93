import { ApiKeyNotFound } from '../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { ApiKeyPorts } from '../../ports/api-key-ports.js';

export interface RevokeApiKeyCommand {
  readonly id: string;
  readonly metadata: RequestMetadata;
}

/**
 * Revokes an API key (`npm run admin -- revoke-key <id>`): every later request with it is refused (401), on every
 * instance at once (the key is read from the store on each request). Records ApiKeyRevoked. Throws ApiKeyNotFound
 * for an unknown key or one revoked already.
 */
export class RevokeApiKeyHandler {
  constructor(private readonly deps: Pick<ApiKeyPorts, 'apiKeys' | 'clock' | 'ids'>) {}

  async execute(command: RevokeApiKeyCommand): Promise<void> {
    const { apiKeys, clock, ids } = this.deps;
    const at = clock.now();
    const event = { type: 'ApiKeyRevoked' as const, aggregateId: null, occurredAt: at, payload: { keyId: command.id }, eventId: ids.next(), metadata: { ...command.metadata, actor: 'cli' } };
    if (!(await apiKeys.revoke(command.id, at, [event]))) throw new ApiKeyNotFound();
  }
}
