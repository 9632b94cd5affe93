import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** What the CORS settings allow: exact origins (`https://app.example.com`), or `*` for any origin. */
export interface CorsOptions {
  /** Exact origins (scheme, host and port as the browser sends them), or `['*']`. Empty: no CORS at all. */
  readonly origins: readonly string[];
}

/** How long a browser may cache a preflight answer (Chromium caps it at 7200). */
export const CORS_MAX_AGE_SECONDS = 600;
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'] as const;
export const CORS_ALLOWED_HEADERS = ['Content-Type', 'Authorization', 'X-Request-Id'] as const;
/** Response headers a page may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'WWW-Authenticate', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/**
 * The CORS headers of a simple (non-preflight) answer to `origin`, the same that @fastify/cors adds in registerCors;
 * for answers written before Fastify sees the request (edge shedding). None for an origin that is not allowed.
 */
export function corsAnswerHeaders(options: CorsOptions, origin: string | undefined): Readonly<Record<string, string>> {
  if (origin === undefined || options.origins.length === 0) return {};
  const anyOrigin = options.origins.includes('*');
  if (!anyOrigin && !options.origins.includes(origin)) return {};
  return {
    'access-control-allow-origin': anyOrigin ? '*' : origin,
    ...(anyOrigin ? {} : { vary: 'Origin' }),
    'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '),
  };
}

/**
 * Cross-origin access for browser apps, with @fastify/cors. Only the configured origins get CORS headers; any other
 * origin (and any request without Origin) gets none at all, and its preflight is answered like an unknown route.
 * Credentials are never allowed: tokens travel in the Authorization header and the body, never in cookies, which is
 * also why `*` is acceptable. Preflights are answered in the onRequest hook, before rate limits and authentication.
 */
export function registerCors(app: FastifyInstance, options: CorsOptions): void {
  if (options.origins.length === 0) return;
  const anyOrigin = options.origins.includes('*');
  const allowed = new Set(options.origins);
  void app.register(cors, {
    origin: (origin, callback) => {
      if (origin === undefined) callback(null, false);
      else callback(null, anyOrigin ? '*' : allowed.has(origin) ? origin : false);
    },
    methods: [...CORS_METHODS],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: CORS_MAX_AGE_SECONDS,
    credentials: false,
    strictPreflight: true,
  });
}
