import type { FastifyRequest } from 'fastify';
import { InvalidToken } from '../../../application/errors.js';
import type { ApiKeyPrincipal, ApiKeyScope, Principal } from '../../../application/registry.js';
import type { UseCases } from '../../../application/registry.js';
import { HttpError } from './error-mapper.js';

const BEARER_SCHEME = /^Bearer(\s|$)/i;
const BEARER_TOKEN = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Reads the request's `Authorization: Bearer <token>` (RFC 6750) and asks the application who it speaks for.
 * Throws HttpError('MISSING_TOKEN') when no bearer token is presented (no header, or another scheme),
 * InvalidToken for a malformed or unacceptable one.
 */
/** The API key of the request's `Authorization: Bearer <key>`, checked for `scope` (HttpError MISSING_TOKEN without one). */
export async function authenticateApiKey(request: FastifyRequest, useCases: Pick<UseCases, 'authenticateApiKey'>, scope: ApiKeyScope): Promise<ApiKeyPrincipal> {
  const header = request.headers.authorization;
  if (header === undefined || !BEARER_SCHEME.test(header)) throw new HttpError('MISSING_TOKEN');
  return useCases.authenticateApiKey.execute({ key: BEARER_TOKEN.exec(header)?.[1] ?? '', scope });
}

export async function authenticate(request: FastifyRequest, useCases: Pick<UseCases, 'authenticate'>, allowUnverified = false): Promise<Principal> {
  const header = request.headers.authorization;
  if (header === undefined || !BEARER_SCHEME.test(header)) throw new HttpError('MISSING_TOKEN');
  const accessToken = BEARER_TOKEN.exec(header)?.[1];
  if (accessToken === undefined) throw new InvalidToken();
  return useCases.authenticate.execute({ accessToken, allowUnverified });
}
