import type { ApiKeyScope } from '../../domain/operator.js';

/** Who an admin or introspection request speaks for: an operator's or a service's key. */
export interface ApiKeyPrincipal {
  readonly keyId: string;
  readonly scopes: readonly ApiKeyScope[];
}

/** Who acted, as events record it, when an API key did (`key:<id>`); the command line is `cli`. */
export const keyActor = (keyId: string): string => `key:${keyId}`;
