import type { FastifyInstance } from 'fastify';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const badRequest = (reason: string): Error => Object.assign(new Error(reason), { statusCode: 400 });

/**
 * Replaces Fastify's JSON parser with one that refuses bytes that are not valid UTF-8 (instead of silently turning
 * them into U+FFFD) and keeps Fastify's secure parsing: `__proto__` and `constructor.prototype` keys are refused.
 */
export function useStrictJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(badRequest('body is not valid UTF-8'), undefined);
      return;
    }
    void parseJson(request, text, done);
  });
}
