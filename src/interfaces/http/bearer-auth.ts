import type { FastifyRequest } from 'fastify';
import { InvalidToken } from '../../application/ports/invalid-token.js';
import type { TokenVerifier, VerifiedToken } from '../../application/ports/token-verifier.port.js';

export const REALM = 'account-service';
const BEARER_SCHEME = /^Bearer(\s|$)/i;
const BEARER_TOKEN = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Verifies the request's `Authorization: Bearer <token>` (RFC 6750). Throws InvalidToken('missing') when no
 * bearer token is presented (no header, or another scheme), InvalidToken('invalid') for a malformed or
 * unacceptable one.
 */
export async function authenticate(request: FastifyRequest, verifier: TokenVerifier): Promise<VerifiedToken> {
  const header = request.headers.authorization;
  if (header === undefined || !BEARER_SCHEME.test(header)) throw new InvalidToken('missing');
  const token = BEARER_TOKEN.exec(header)?.[1];
  if (token === undefined) throw new InvalidToken('invalid');
  return verifier.verify(token);
}

/** The `WWW-Authenticate` challenge for a 401: `error="invalid_token"` only when a token was presented. */
export const bearerChallenge = (error: InvalidToken): string =>
  error.reason === 'missing' ? `Bearer realm="${REALM}"` : `Bearer realm="${REALM}", error="invalid_token"`;

/** The extra headers an error answer carries: the bearer challenge for InvalidToken, none otherwise. */
export const challengeHeaders = (error: unknown): { headers?: Record<string, string> } =>
  error instanceof InvalidToken ? { headers: { 'www-authenticate': bearerChallenge(error) } } : {};
