import type { FastifyInstance } from 'fastify';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const badRequest = (reason: string): Error => Object.assign(new Error(reason), { statusCode: 400 });

/** The body as text, or null after answering 400 when its bytes are not valid UTF-8 (never U+FFFD in their place). */
const textOf = (body: string | Buffer, done: (error: Error, value: undefined) => void): string | null => {
  try {
    return strictUtf8.decode(body as Buffer);
  } catch {
    done(badRequest('body is not valid UTF-8'), undefined);
    return null;
  }
};

/**
 * Replaces Fastify's JSON parser with one that refuses bytes that are not valid UTF-8 (instead of silently turning
 * them into U+FFFD) and keeps Fastify's secure parsing: `__proto__` and `constructor.prototype` keys are refused.
 */
export function useStrictJsonParser(app: FastifyInstance): void {
  useFormParser(app);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const text = textOf(body, done);
    if (text !== null) void parseJson(request, text, done);
  });
}

/**
 * `application/x-www-form-urlencoded` for the operations that declare it (`body.form`, route config `formBody`):
 * strict UTF-8, each field once (a repeated field is refused, as RFC 7662 asks). Every other route answers 415, as
 * before there was a form parser.
 */
function useFormParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (request, body, done) => {
    if (request.routeOptions.config.formBody !== true) {
      done(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), undefined);
      return;
    }
    const text = textOf(body, done);
    if (text === null) return;
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [name, value] of new URLSearchParams(text)) {
      if (name in fields) {
        done(badRequest(`the field ${name} is repeated`), undefined);
        return;
      }
      fields[name] = value;
    }
    done(null, { ...fields });
  });
}
