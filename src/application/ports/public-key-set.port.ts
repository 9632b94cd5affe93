import { token } from '../di-token.js';

/** A public signature-verification key in JWK form (RFC 7517), EC P-256 for ES256. */
export interface PublicJwk {
  readonly kty: 'EC';
  readonly crv: 'P-256';
  readonly x: string;
  readonly y: string;
  readonly kid: string;
  readonly alg: 'ES256';
  readonly use: 'sig';
}

/** The keys other services may verify our access tokens with. */
export interface PublicKeySet {
  /**
   * Returns every key a token is accepted with right now: the current signing key first, then the previous
   * (or upcoming) ones. Never empty, never a private key. Pure; the same answer until the service restarts.
   */
  publicKeys(): readonly PublicJwk[];
}

export const PUBLIC_KEY_SET = token<PublicKeySet>('PublicKeySet');
