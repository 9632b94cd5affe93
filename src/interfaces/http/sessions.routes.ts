import type { FastifyInstance } from 'fastify';
import type { UseCases } from '../../application/registry.js';
import { InvalidInput } from '../../domain/domain-error.js';
import { requestMetadata, tokenEnvelope } from './auth.routes.js';
import { validateBody } from './shared/request-body.js';
import { authenticate } from './shared/bearer-auth.js';
import { noStore } from './shared/no-store.js';
import { validatedByYup } from './openapi.js';
import {
  changePasswordRouteSchema,
  changePasswordSchema,
  listSessionsRouteSchema,
  refreshRouteSchema,
  refreshSchema,
  revokeSessionRouteSchema,
  signOutRouteSchema,
} from './sessions.openapi.js';

export const REFRESHED_MESSAGE = 'Token refreshed successfully';
export const SESSIONS_MESSAGE = 'Sessions retrieved successfully';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully';

const fieldsOf = <T extends object>(schema: Parameters<typeof validateBody<T>>[0], body: unknown) => {
  const checked = validateBody(schema, body);
  if (!checked.ok) throw new InvalidInput(checked.issues);
  return checked.value;
};

/** Refresh, sign-out, devices and password change: authenticate, call the use case, shape the envelope. */
export function sessionRoutes(
  useCases: Pick<UseCases, 'authenticate' | 'refreshSession' | 'signOut' | 'listSessions' | 'revokeSession' | 'changePassword' | 'admission'>,
) {
  return (app: FastifyInstance): void => {
    app.post('/auth/refresh', { schema: refreshRouteSchema, ...validatedByYup }, async (request, reply) => {
      const { refreshtoken } = fieldsOf(refreshSchema, request.body);
      const result = await useCases.refreshSession.execute({ refreshToken: refreshtoken, metadata: requestMetadata(request) });
      return noStore(reply).send(tokenEnvelope(REFRESHED_MESSAGE, result));
    });

    app.post('/auth/sign-out', { schema: signOutRouteSchema, config: { optionalBody: true }, ...validatedByYup }, async (request, reply) => {
      const principal = await authenticate(request, useCases);
      const body = request.body === undefined ? {} : request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new InvalidInput([{ field: null, message: 'body must be a JSON object' }]);
      }
      const { scope } = body as { scope?: unknown };
      await useCases.signOut.execute({ principal, scope, metadata: requestMetadata(request) });
      return reply.code(204).send();
    });

    app.get('/auth/sessions', { schema: listSessionsRouteSchema }, async (request, reply) => {
      const principal = await authenticate(request, useCases);
      const sessions = await useCases.listSessions.execute({ principal });
      return noStore(reply).send({
        message: SESSIONS_MESSAGE,
        data: {
          sessions: sessions.map((s) => ({
            id: s.id,
            createdAt: s.createdAt.toISOString(),
            lastUsedAt: s.lastUsedAt.toISOString(),
            expiresAt: s.expiresAt.toISOString(),
            clientIp: s.clientIp,
            userAgent: s.userAgent,
            current: s.current,
          })),
        },
      });
    });

    app.delete('/auth/sessions/:id', { schema: revokeSessionRouteSchema }, async (request, reply) => {
      const principal = await authenticate(request, useCases);
      const { id } = request.params as { id: string };
      await useCases.revokeSession.execute({ principal, sessionId: id, metadata: requestMetadata(request) });
      return reply.code(204).send();
    });

    app.post('/auth/password', { schema: changePasswordRouteSchema, ...validatedByYup }, async (request, reply) => {
      const principal = await authenticate(request, useCases);
      const { currentpassword, newpassword } = fieldsOf(changePasswordSchema, request.body);
      useCases.admission.admit();
      const user = await useCases.changePassword.execute({
        principal,
        currentPassword: currentpassword,
        newPassword: newpassword,
        metadata: requestMetadata(request),
      });
      return noStore(reply).send({ message: PASSWORD_CHANGED_MESSAGE, data: { user } });
    });
  };
}
