import type { ApiKey } from '../../domain/api-keys/api-key.js';

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
