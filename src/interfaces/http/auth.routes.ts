import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthResult } from '../../application/commands/auth-result.js';
import type { SignInHandler } from '../../application/commands/sign-in.handler.js';
import type { SignUpHandler } from '../../application/commands/sign-up.handler.js';
import type { RequestMetadata } from '../../application/ports/event-log.port.js';
import { InvalidInput } from '../../domain/domain-error.js';
import { signInRouteSchema, signUpRouteSchema } from './auth.openapi.js';
import { signInSchema, signUpSchema, validateBody } from './auth.schemas.js';
import { validatedByYup } from './openapi.js';

export interface AuthHandlers {
  readonly signUp: Pick<SignUpHandler, 'execute'>;
  readonly signIn: Pick<SignInHandler, 'execute'>;
  /**
   * Admission control for the routes that hash a password: throws ServiceUnavailable when hashing capacity is
   * exhausted, so an overloaded service refuses before parsing, validating or reading the store.
   */
  readonly admitHashing?: () => void;
}

export const SUCCESS_MESSAGE = 'User created successfully';
const USER_AGENT_MAX_LENGTH = 512;

export const requestMetadata = (request: FastifyRequest): RequestMetadata => ({
  requestId: request.id,
  clientIp: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
});

const successEnvelope = (result: AuthResult) => ({
  message: SUCCESS_MESSAGE,
  data: { user: result.user, accesstoken: result.accessToken },
});

/** POST /auth/sign-up and POST /auth/sign-in: validate, call the handler, shape the envelope. */
export function authRoutes(handlers: AuthHandlers) {
  return (app: FastifyInstance): void => {
    const admit = handlers.admitHashing;
    if (admit) app.addHook('onRequest', async () => admit());

    app.post('/auth/sign-up', { schema: signUpRouteSchema, ...validatedByYup }, async (request, reply) => {
      const body = validateBody(signUpSchema, request.body);
      if (!body.ok) throw new InvalidInput(body.issues);
      const result = await handlers.signUp.execute({ ...body.value, metadata: requestMetadata(request) });
      return reply.code(201).send(successEnvelope(result));
    });

    app.post('/auth/sign-in', { schema: signInRouteSchema, ...validatedByYup }, async (request, reply) => {
      const body = validateBody(signInSchema, request.body);
      if (!body.ok) throw new InvalidInput(body.issues);
      const result = await handlers.signIn.execute({ ...body.value, metadata: requestMetadata(request) });
      return reply.code(201).send(successEnvelope(result));
    });
  };
}
