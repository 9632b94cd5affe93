import type { ApiKeyScope } from '../../../../domain/operator.js';
import { InsufficientScope, InvalidToken, KeyRateLimited } from '../../../errors.js';
import type { OperatorKeys } from '../../../ports/operator-keys.port.js';
import type { ApiKeyPrincipal } from '../../../shared/operator.js';
import type { ApiKeyPorts } from '../../ports/api-key-ports.js';

export interface AuthenticateApiKeyQuery {
  /** The key as presented (`Authorization: Bearer <key>`). */
  readonly key: string;
  readonly scope: ApiKeyScope;
}


export interface ApiKeyRateLimit {
  /** Requests one key may make per minute, counted inside the store (exact across instances). */
  readonly perMinute: number;
}

/**
 * Every `/admin` and `/oauth/introspect` request starts here: the key must be one of ours, not revoked (read from the
 * store each time, so a revocation holds at once everywhere), hold `scope`, and be under its rate limit.
 * Throws InvalidToken (401) for an unknown, malformed or revoked key, InsufficientScope (403), KeyRateLimited (429).
 * A bearer not shaped like an API key goes to `accessTokens` (an operator's access token) when given, else is InvalidToken.
 */
export class AuthenticateApiKeyHandler implements OperatorKeys {
  constructor(
    private readonly deps: Pick<ApiKeyPorts, 'apiKeys' | 'apiKeySecrets' | 'limits' | 'clock'>,
    private readonly limit: ApiKeyRateLimit,
    private readonly accessTokens?: OperatorKeys,
  ) {}

  async execute(query: AuthenticateApiKeyQuery): Promise<ApiKeyPrincipal> {
    const { apiKeys, apiKeySecrets, limits, clock } = this.deps;
    const id = apiKeySecrets.idOf(query.key);
    if (id === null && this.accessTokens !== undefined) return this.accessTokens.execute(query);
    const key = id === null ? null : await apiKeys.findById(id);
    if (!key || key.revokedAt !== null || !apiKeySecrets.matches(query.key, key.secretHash)) throw new InvalidToken();
    if (!key.scopes.includes(query.scope)) throw new InsufficientScope(query.scope);
    const now = clock.now();
    const reached = await limits.take({ key: `api-key:${key.id}`, max: this.limit.perMinute, windowSeconds: 60 }, now);
    if (reached) throw new KeyRateLimited(Math.max(1, Math.ceil((reached.retryAt.getTime() - now.getTime()) / 1000)));
    return { keyId: key.id, scopes: key.scopes };
  }
}
