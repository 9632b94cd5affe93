import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's security headers (CSP, nosniff, frame options, ...), computed once at start-up: they do not depend
 * on the request, so nothing rebuilds helmet's middleware per request (as @fastify/helmet does; the README's
 * benchmark section has what that cost).
 *
 * Two of helmet's defaults are left out here because they only make sense over HTTPS: the CSP's
 * `upgrade-insecure-requests` (a browser that opened http://host:3000/docs would fetch its scripts over https and
 * get nothing) and Strict-Transport-Security (ignored over plain HTTP, RFC 6797 section 8.1). HSTS is sent per
 * request, on HTTPS requests only: see `hstsFor`.
 */
export function securityHeaders(): Readonly<Record<string, string>> {
  return Object.freeze(captureHelmet({
    strictTransportSecurity: false,
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  }));
}

/** helmet's default Strict-Transport-Security value (one year, subdomains). */
export const HSTS_VALUE: string = captureHelmet({})['strict-transport-security'] ?? 'max-age=31536000; includeSubDomains';

/**
 * The Strict-Transport-Security header for a request: present only when the request came over HTTPS, directly or
 * as told by a trusted proxy (Fastify's `request.protocol` reads X-Forwarded-Proto only from trusted proxies).
 */
export const hstsFor = (protocol: string): Readonly<Record<string, string>> =>
  protocol === 'https' ? { 'strict-transport-security': HSTS_VALUE } : {};

function captureHelmet(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const capture = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, capture as unknown as ServerResponse, () => undefined);
  return headers;
}
