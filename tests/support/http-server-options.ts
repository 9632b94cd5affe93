import type { FastifyBaseLogger } from 'fastify';
import './observed-statuses.js';
import type { UseCases } from '../../src/application/registry.js';
import type { HttpServerOptions } from '../../src/interfaces/http/server.js';

const unused = () => Promise.reject(new Error('not used by this test'));

/** Every use case refusing, so that a test states only the parts it cares about. */
const refusingUseCases = {
  signUp: { execute: unused },
  signIn: { execute: unused },
  authenticate: { execute: unused },
  getCurrentUser: { execute: unused },
  getAccountActivity: { execute: unused },
  admission: { admit: () => undefined },
  publicKeys: { publicKeys: () => [] },
  storeHealth: { check: () => Promise.resolve() },
};

type UseCaseStubs = { readonly [K in keyof UseCases]?: unknown };

/** Options for building the HTTP adapter alone, around the use cases a test cares about; every other one refuses. */
export const httpServerOptions = (
  logger: FastifyBaseLogger,
  { useCases, ...overrides }: Omit<Partial<HttpServerOptions>, 'useCases'> & { useCases?: UseCaseStubs } = {},
): HttpServerOptions => ({
  logger,
  bodyLimitBytes: 16 * 1024,
  rateLimit: { max: 100, windowMs: 60_000 },
  trustProxy: false,
  useCases: { ...refusingUseCases, ...useCases } as unknown as UseCases,
  ...overrides,
});
