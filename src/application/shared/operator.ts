import type { ApiKeyScope } from '../../domain/operator.js';

/** An operator's or a service's API key. */
export interface KeyPrincipal {
  readonly keyId: string;
  readonly scopes: readonly ApiKeyScope[];
}

/** An operator's own access token: the account holding the operator role, signed in with a second factor. */
export interface OperatorPrincipal {
  readonly operatorId: string;
  readonly scopes: readonly ApiKeyScope[];
}

/** Who an admin or introspection request speaks for: an API key, or an operator's access token. */
export type ApiKeyPrincipal = KeyPrincipal | OperatorPrincipal;

/** Who acted, as events record it, when an API key did (`key:<id>`); the command line is `cli`. */
export const keyActor = (keyId: string): string => `key:${keyId}`;

/** Who acted, as events record it: the key (`key:<id>`) or the operator's account (`operator:<account id>`). */
export const actorOf = (principal: ApiKeyPrincipal): string => ('keyId' in principal ? keyActor(principal.keyId) : `operator:${principal.operatorId}`);
