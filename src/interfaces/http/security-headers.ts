import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's security headers (CSP, nosniff, frame options, ...), computed once at start-up: they do not depend
 * on the request, so nothing rebuilds helmet's middleware per request (as @fastify/helmet does; the README's
 * benchmark section has what that cost).
 *
 * Three of helmet's defaults only make sense over HTTPS and are left out here: the CSP's `upgrade-insecure-requests`
 * (a browser that opened http://host:3000/docs would fetch its scripts over https and get nothing),
 * Strict-Transport-Security (ignored over plain HTTP, RFC 6797 section 8.1) and Cross-Origin-Opener-Policy (ignored
 * on an untrustworthy origin, with a console error in Chromium). The last two are sent per request, on HTTPS
 * requests only: see `httpsOnlyHeaders`.
 */
export function securityHeaders(): Readonly<Record<string, string>> {
  return Object.freeze(
    captureHelmet({
      strictTransportSecurity: false,
      crossOriginOpenerPolicy: false,
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    }),
  );
}

const HTTPS_ONLY: Readonly<Record<string, string>> = (() => {
  const defaults = captureHelmet({});
  return Object.freeze({
    'strict-transport-security': defaults['strict-transport-security'] ?? 'max-age=31536000; includeSubDomains',
    'cross-origin-opener-policy': defaults['cross-origin-opener-policy'] ?? 'same-origin',
  });
})();

/**
 * helmet's Strict-Transport-Security and Cross-Origin-Opener-Policy, for a request that came over HTTPS, directly
 * or as told by a trusted proxy (Fastify's `request.protocol` reads X-Forwarded-Proto only from trusted proxies);
 * nothing otherwise.
 */
export const httpsOnlyHeaders = (protocol: string): Readonly<Record<string, string>> => (protocol === 'https' ? HTTPS_ONLY : {});

function captureHelmet(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const capture = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, capture as unknown as ServerResponse, () => undefined);
  return headers;
}
