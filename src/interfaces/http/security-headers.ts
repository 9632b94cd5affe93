import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's security headers (CSP, HSTS, nosniff, frame options, ...), computed once at start-up: they do not depend
 * on the request, so nothing rebuilds helmet's middleware per request (as @fastify/helmet does; the README's
 * benchmark section has what that cost).
 */
export function securityHeaders(options: Readonly<HelmetOptions> = {}): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const capture = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, capture as unknown as ServerResponse, () => undefined);
  return Object.freeze(headers);
}
