import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthResult } from '../../application/registry.js';
import type { RequestMetadata } from '../../application/ports/event-log.port.js';
import type { UseCases } from '../../application/registry.js';
import { InvalidInput } from '../../domain/domain-error.js';
import { signInRouteSchema, signUpRouteSchema } from './auth.openapi.js';
import { signInSchema, signUpSchema, validateBody } from './auth.schemas.js';
import { noStore } from './no-store.js';
import { validatedByYup } from './openapi.js';

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

/**
 * POST /auth/sign-up and POST /auth/sign-in: check the body's shape, call the use case, shape the envelope.
 * Both hash a password, so both are refused before parsing when hashing capacity is exhausted (admission).
 */
export function authRoutes(useCases: Pick<UseCases, 'signUp' | 'signIn' | 'admission'>) {
  return (app: FastifyInstance): void => {
    app.addHook('onRequest', async () => useCases.admission.admit());

    app.post('/auth/sign-up', { schema: signUpRouteSchema, ...validatedByYup }, async (request, reply) => {
      const body = validateBody(signUpSchema, request.body);
      if (!body.ok) throw new InvalidInput(body.issues);
      const result = await useCases.signUp.execute({ ...body.value, metadata: requestMetadata(request) });
      return noStore(reply).code(201).send(tokenEnvelope(SUCCESS_MESSAGE, result));
    });

    app.post('/auth/sign-in', { schema: signInRouteSchema, ...validatedByYup }, async (request, reply) => {
      const body = validateBody(signInSchema, request.body);
      if (!body.ok) throw new InvalidInput(body.issues);
      const result = await useCases.signIn.execute({ ...body.value, metadata: requestMetadata(request) });
      return noStore(reply).code(201).send(tokenEnvelope(SUCCESS_MESSAGE, result));
    });
  };
}
