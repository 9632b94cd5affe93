import type { ApiKeyScope } from '../../domain/operator.js';
import { token } from '../di-token.js';
import type { ApiKeyPrincipal } from '../shared/operator.js';

/**
 * Checks the bearer an `/admin` or `/oauth/introspect` request presents, for the scope the operation needs: the one way
 * the core knows operators' keys (and operators' own access tokens). The API keys capability provides it
 * (src/capabilities/api-keys.ts); without that capability every key is refused.
 */
export interface OperatorKeys {
  /**
   * Who the bearer speaks for. Throws InvalidToken (unknown, malformed or revoked key; a token the core's bearer check
   * refuses), EmailNotVerified, NotAnOperator (a valid token of an account without the operator role),
   * SecondFactorRequired (an operator's token proved one factor only), InsufficientScope or KeyRateLimited.
   */
  execute(query: { readonly key: string; readonly scope: ApiKeyScope }): Promise<ApiKeyPrincipal>;
}

export const OPERATOR_KEYS = token<OperatorKeys>('OperatorKeys');
