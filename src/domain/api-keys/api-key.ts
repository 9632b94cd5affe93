import type { DomainEvent } from '../domain-event.js';
import { InvalidInput } from '../domain-error.js';
import { API_KEY_SCOPES, type ApiKeyScope } from '../operator.js';

/**
 * A key a service or an operator holds (made by `npm run admin -- create-key`): not an account's, and never stored in
 * clear: `secretHash` is a keyed hash of its secret, shown once when made.
 */
export interface ApiKey {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly ApiKeyScope[];
  readonly secretHash: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

const NAME = /^[\p{L}\p{N} ._-]{1,64}$/u;

/** The scopes a comma-separated list names, each once; throws InvalidInput naming `scopes` for an unknown or empty one. */
export function parseScopes(list: string): ApiKeyScope[] {
  const named = list.split(',').map((scope) => scope.trim()).filter((scope) => scope.length > 0);
  const unknown = named.filter((scope) => !(API_KEY_SCOPES as readonly string[]).includes(scope));
  if (named.length === 0 || unknown.length > 0) {
    throw new InvalidInput([{ field: 'scopes', code: 'NOT_ONE_OF', message: `must name one or more of ${API_KEY_SCOPES.join(', ')}${unknown.length > 0 ? ` (not ${unknown.join(', ')})` : ''}` }]);
  }
  return [...new Set(named)] as ApiKeyScope[];
}

/** A key's name as given (letters, digits, spaces, `._-`, 64 at most); throws InvalidInput naming `name`. */
export function parseKeyName(name: string): string {
  if (!NAME.test(name)) throw new InvalidInput([{ field: 'name', code: 'INVALID_FORMAT', message: 'must be 1 to 64 letters, digits, spaces, dots, dashes or underscores' }]);
  return name;
}

/** Never the secret nor its hash: the key's id, name and scopes. */
export type ApiKeyCreated = DomainEvent<'ApiKeyCreated', { readonly keyId: string; readonly name: string; readonly scopes: readonly ApiKeyScope[] }>;
export type ApiKeyRevoked = DomainEvent<'ApiKeyRevoked', { readonly keyId: string }>;
export type ApiKeyEvent = ApiKeyCreated | ApiKeyRevoked;
