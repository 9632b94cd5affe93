import type { FastifyRequest } from 'fastify';
import type { AuthResult } from '../../application/registry.js';
import type { RequestMetadata } from '../../application/ports/event-log.port.js';

export const SUCCESS_MESSAGE = 'User created successfully';
const USER_AGENT_MAX_LENGTH = 512;

export const requestMetadata = (request: FastifyRequest): RequestMetadata => ({
  requestId: request.id,
  clientIp: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
});

/** The documented success envelope, plus the session's refresh token and the access token's lifetime (additive). */
export const tokenEnvelope = (message: string, result: AuthResult) => ({
  message,
  data: { user: result.user, accesstoken: result.accessToken, refreshtoken: result.refreshToken, expiresin: result.expiresIn },
});
