import type { FastifyInstance } from 'fastify';
import type { UseCases } from '../../application/registry.js';
import { InvalidInput } from '../../domain/domain-error.js';
import { requestMetadata } from './auth.routes.js';
import { validateBody } from './shared/request-body.js';
import { authenticate } from './shared/bearer-auth.js';
import {
  RESEND_MESSAGE,
  RESET_REQUESTED_MESSAGE,
  resendRouteSchema,
  resetConfirmRouteSchema,
  resetConfirmSchema,
  resetRequestRouteSchema,
  resetRequestSchema,
  verifyRouteSchema,
  verifySchema,
} from './mail.openapi.js';
import { noStore } from './shared/no-store.js';
import { validatedByYup } from './openapi.js';

export interface MailRouteOptions {
  /** A stricter per-client limit on reset requests than the one on every /auth route. */
  readonly resetRateLimit: { readonly max: number; readonly windowMs: number };
}

const fieldsOf = <T extends object>(schema: Parameters<typeof validateBody<T>>[0], body: unknown) => {
  const checked = validateBody(schema, body);
  if (!checked.ok) throw new InvalidInput(checked.issues);
  return checked.value;
};

/** Password reset and e-mail verification: the mails leave from the outbox, never inside a request. */
export function mailRoutes(
  useCases: Pick<UseCases, 'requestPasswordReset' | 'confirmPasswordReset' | 'verifyEmail' | 'resendVerification' | 'authenticate' | 'admission'>,
  options: MailRouteOptions,
) {
  return (app: FastifyInstance): void => {
    const resetLimit = { rateLimit: { max: options.resetRateLimit.max, timeWindow: options.resetRateLimit.windowMs } };

    app.post('/auth/password-reset', { schema: resetRequestRouteSchema, config: resetLimit, ...validatedByYup }, async (request, reply) => {
      const { email } = fieldsOf(resetRequestSchema, request.body);
      await useCases.requestPasswordReset.execute({ email, metadata: requestMetadata(request) });
      return reply.code(202).send({ message: RESET_REQUESTED_MESSAGE, data: {} });
    });

    app.post('/auth/password-reset/confirm', { schema: resetConfirmRouteSchema, config: resetLimit, ...validatedByYup }, async (request, reply) => {
      const { token, newpassword } = fieldsOf(resetConfirmSchema, request.body);
      useCases.admission.admit();
      const user = await useCases.confirmPasswordReset.execute({ token, newPassword: newpassword, metadata: requestMetadata(request) });
      return noStore(reply).send({ message: 'Password reset successfully', data: { user } });
    });

    app.post('/auth/verify-email', { schema: verifyRouteSchema, ...validatedByYup }, async (request, reply) => {
      const { token } = fieldsOf(verifySchema, request.body);
      const user = await useCases.verifyEmail.execute({ token, metadata: requestMetadata(request) });
      return noStore(reply).send({ message: 'Email verified successfully', data: { user } });
    });

    app.post('/auth/verify-email/resend', { schema: resendRouteSchema, config: { optionalBody: true } }, async (request, reply) => {
      const { userId } = await authenticate(request, useCases);
      await useCases.resendVerification.execute({ userId, metadata: requestMetadata(request) });
      return reply.code(202).send({ message: RESEND_MESSAGE, data: {} });
    });
  };
}
