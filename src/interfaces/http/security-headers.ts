import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

export interface SecurityHeaders {
  /** What every answer carries. */
  readonly plain: Readonly<Record<string, string>>;
  /** What an answer to a request that came over HTTPS carries: the plain ones and the two below. */
  readonly overHttps: Readonly<Record<string, string>>;
}

/**
 * helmet's security headers (CSP, nosniff, frame options, ...), computed once at start-up: they do not depend
 * on the request, so nothing rebuilds helmet's middleware per request (as @fastify/helmet does; the README's
 * benchmark section has what that cost), and an answer sets one of two prepared sets.
 *
 * Three of helmet's defaults only make sense over HTTPS and are left out of the plain set: the CSP's
 * `upgrade-insecure-requests` (a browser that opened http://host:3000/docs would fetch its scripts over https and get
 * nothing), Strict-Transport-Security (ignored over plain HTTP, RFC 6797 section 8.1) and Cross-Origin-Opener-Policy
 * (ignored on an untrustworthy origin, with a console error in Chromium). The last two are in `overHttps`, for a
 * request that came over HTTPS, directly or as told by a trusted proxy (Fastify's `request.protocol` reads
 * X-Forwarded-Proto only from trusted proxies).
 */
export function securityHeaders(): SecurityHeaders {
  const plain = captureHelmet({
    strictTransportSecurity: false,
    crossOriginOpenerPolicy: false,
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  });
  const defaults = captureHelmet({});
  const httpsOnly = {
    'strict-transport-security': defaults['strict-transport-security'] ?? 'max-age=31536000; includeSubDomains',
    'cross-origin-opener-policy': defaults['cross-origin-opener-policy'] ?? 'same-origin',
  };
  return Object.freeze({ plain: Object.freeze(plain), overHttps: Object.freeze({ ...plain, ...httpsOnly }) });
}

function captureHelmet(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const capture = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, capture as unknown as ServerResponse, () => undefined);
  return headers;
}
