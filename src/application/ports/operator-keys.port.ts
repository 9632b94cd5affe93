import type { ApiKeyScope } from '../../domain/operator.js';
import { token } from '../di-token.js';
import type { ApiKeyPrincipal } from '../shared/operator.js';

/**
 * Checks the key an `/admin` or `/oauth/introspect` request presents, for the scope the operation needs: the one way
 * the core knows operators' keys. The API keys capability provides it (src/capabilities/api-keys.ts); without that
 * capability every key is refused.
 */
export interface OperatorKeys {
  /** Throws InvalidToken (unknown, malformed or revoked key), InsufficientScope or KeyRateLimited. */
  execute(query: { readonly key: string; readonly scope: ApiKeyScope }): Promise<ApiKeyPrincipal>;
}

export const OPERATOR_KEYS = token<OperatorKeys>('OperatorKeys');
