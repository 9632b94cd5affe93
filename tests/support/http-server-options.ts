import type { FastifyBaseLogger } from 'fastify';
import type { HttpServerOptions } from '../../src/interfaces/http/server.js';

const unused = () => Promise.reject(new Error('not used by this test'));

/** Options for building the HTTP adapter alone, around the parts a test cares about; everything else refuses. */
export const httpServerOptions = (logger: FastifyBaseLogger, overrides: Partial<HttpServerOptions> = {}): HttpServerOptions => ({
  logger,
  bodyLimitBytes: 16 * 1024,
  rateLimit: { max: 100, windowMs: 60_000 },
  trustProxy: false,
  handlers: { signUp: { execute: unused }, signIn: { execute: unused } },
  account: { verifier: { verify: unused }, currentUser: { execute: unused }, activity: { execute: unused } },
  publicKeys: { publicKeys: () => [] },
  ...overrides,
});
