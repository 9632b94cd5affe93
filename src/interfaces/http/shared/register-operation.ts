import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestMetadata } from '../../../application/ports/event-log.port.js';
import type { UseCases } from '../../../application/registry.js';
import { DomainError, InvalidInput } from '../../../domain/domain-error.js';
import { ApplicationError } from '../../../application/errors.js';
import { DeclaredError } from './error-mapper.js';
import { authenticate, authenticateApiKey } from './bearer-auth.js';
import { operationSchema } from './operation-schema.js';
import { type AnyOperation, isAlternative } from './operation.js';
import { validateBody } from './request-body.js';

const USER_AGENT_MAX_LENGTH = 512;

/** Who asked, as recorded with every event: the request id, the client address and its user agent (cut). */
export const requestMetadata = (request: FastifyRequest): RequestMetadata => ({
  requestId: request.id,
  clientIp: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
});

export interface RegisterOptions {
  /** The stricter per-client limit of `rateLimit: 'reset'` operations (each route counted apart). */
  readonly resetRateLimit: { readonly max: number; readonly windowMs: number };
}

/** The fields the operation reads, as sent; an operation that reads none ignores whatever body came. */
const bodyOf = (operation: AnyOperation, request: FastifyRequest) => {
  if (!operation.body || Object.keys(operation.body.schema.fields).length === 0) return {};
  const sent = operation.body.optional === true && request.body === undefined ? {} : request.body;
  const checked = validateBody(operation.body.schema, sent);
  if (!checked.ok) throw new InvalidInput(checked.issues);
  return checked.value;
};

/** Marks an answer that carries a token or personal data as never to be stored by any cache (RFC 6749 section 5.1). */
const noStore = (reply: FastifyReply): FastifyReply => reply.header('cache-control', 'no-store').header('pragma', 'no-cache');

const answer = (operation: AnyOperation, reply: FastifyReply, result: unknown): FastifyReply => {
  const { success } = operation;
  if (operation.alternative && isAlternative(result)) {
    return noStore(reply).code(operation.alternative.status).send({ message: operation.alternative.message, data: result.data });
  }
  if (success.status === 204) return reply.code(204).send();
  if ('redirect' in success) return noStore(reply).header('referrer-policy', 'no-referrer').redirect((result as { readonly location: string }).location, 302);
  if ('envelope' in success) return reply.header('cache-control', success.cacheControl).send(result);
  return noStore(reply).code(success.status).send({ message: success.message, data: result ?? {} });
};

/** Turns an error whose code the operation declared as its own (`ownErrors`) into the answer its row says. */
const declared =
  (rows: NonNullable<AnyOperation['ownErrors']>) =>
  (error: unknown): never => {
    if (!(error instanceof ApplicationError || error instanceof DomainError)) throw error;
    const code: string = (error as { readonly code: string }).code;
    const own = Object.hasOwn(rows, code) ? rows[code] : undefined;
    throw own ? new DeclaredError(code, own, error.issues) : error;
  };

/**
 * Registers one declared operation: the route, its OpenAPI entry, and every rule the declaration implies, in this
 * order: hashing admission (before the body is read), authentication, body extraction, the use case with the
 * request metadata, then the success answer (no-store and the `{ message, data }` envelope) or the error table.
 */
export function registerOperation(app: FastifyInstance, operation: AnyOperation, useCases: UseCases, options: RegisterOptions): void {
  const rateLimit = operation.rateLimit === 'reset' ? { rateLimit: { max: options.resetRateLimit.max, timeWindow: options.resetRateLimit.windowMs } } : {};
  app.route({
    method: operation.method,
    url: operation.path,
    schema: operationSchema(operation),
    config: { ...rateLimit, ...(operation.body?.optional === true ? { optionalBody: true } : {}), ...(operation.body?.form === true ? { formBody: true } : {}) },
    ...(operation.hashes ? { onRequest: async () => useCases.admission.admit() } : {}),
    handler: async (request, reply) => {
      const bearer = operation.auth === 'bearer' || (operation.auth === 'optional-bearer' && request.headers.authorization !== undefined);
      const principal =
        operation.auth === 'api-key' ? await authenticateApiKey(request, useCases, operation.scope ?? 'users:write') : bearer ? await authenticate(request, useCases, operation.allowsUnverified === true) : null;
      const body = bodyOf(operation, request);
      const input = { body, params: request.params as Record<string, string>, query: request.query, meta: requestMetadata(request), principal };
      const result = operation.ownErrors === undefined ? await operation.run(input, useCases) : await operation.run(input, useCases).catch(declared(operation.ownErrors));
      if (operation.attachment) reply.header('content-disposition', `attachment; filename="${operation.attachment(input)}"`);
      return answer(operation, reply, result);
    },
  });
}
