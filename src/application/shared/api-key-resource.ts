import type { ApiKey, ApiKeyScope } from '../../domain/api-key.js';

/** Who an admin or introspection request speaks for. */
export interface ApiKeyPrincipal {
  readonly keyId: string;
  readonly scopes: readonly ApiKeyScope[];
}

/** An API key as it is listed: never its secret nor its hash. */
export interface ApiKeyResource {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

export const toApiKeyResource = ({ id, name, scopes, createdAt, revokedAt }: ApiKey): ApiKeyResource =>
  ({ id, name, scopes, createdAt: createdAt.toISOString(), revokedAt: revokedAt?.toISOString() ?? null });

/** Who acted, as events record it, when an API key did (`key:<id>`); the command line is `cli`. */
export const keyActor = (keyId: string): string => `key:${keyId}`;
