declare module 'fastify' {
  interface FastifyContextConfig {
    /** Completed requests are logged at debug instead of info (probes and scrapes). */
    quietLog?: boolean;
    /** The body may be left out entirely (no Content-Type needed then); one that is sent must still be JSON. */
    optionalBody?: boolean;
    /** The operation also reads `application/x-www-form-urlencoded` (RFC 7662 introspection). */
    formBody?: boolean;
    /** A capability's raw route (RawRoute): its handler reads the body itself, whatever its type. */
    raw?: boolean;
  }
}

/** Route config for probes and scrapes: logged at debug, and exempt from any per-IP rate limit. */
export const OPERATIONS_ROUTE_CONFIG = { quietLog: true, rateLimit: false } as const;

/**
 * What every operator route can answer besides its own outcome, to be documented with it: SHUTTING_DOWN once the
 * server stops (server.ts answers it before routing) and INTERNAL when something unexpected fails.
 */
export const ALWAYS_POSSIBLE_ERRORS = ['INTERNAL', 'SHUTTING_DOWN'] as const;
