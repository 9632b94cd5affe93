import { expect } from 'chai';
import type { FastifyInstance } from 'fastify';
import { ServiceUnavailable } from '../../src/application/errors.js';
import { InvalidCredentials } from '../../src/domain/domain-error.js';
import { createLogger } from '../../src/infrastructure/logging/logger.js';
import { buildHttpServer } from '../../src/interfaces/http/server.js';
import { httpServerOptions } from '../support/http-server-options.js';
import { http, postJson } from '../support/http-client.js';

describe('HTTP: admission control before hashing routes', () => {
  let app: FastifyInstance;
  let url: string;
  let saturated = true;
  let handled = 0;
  const handler = {
    execute: () => {
      handled += 1;
      return Promise.reject(new InvalidCredentials());
    },
  };

  before(async () => {
    const admitHashing = () => {
      if (saturated) throw new ServiceUnavailable('overloaded', 1);
    };
    app = buildHttpServer(httpServerOptions(createLogger('silent'), { useCases: { signUp: handler, signIn: handler, admission: { admit: admitHashing } } }));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => app.close());

  it('refuses sign-up and sign-in with 503 and Retry-After before parsing or validating the body', async () => {
    for (const path of ['/auth/sign-up', '/auth/sign-in']) {
      const res = await postJson(url, path, { email: 'not even valid' });
      expect(res.status, path).to.equal(503);
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.body).to.deep.equal({ message: 'Service temporarily unavailable', code: 'OVERLOADED', errors: [{ field: null, message: 'try again shortly' }] });
    }
    expect(handled).to.equal(0);
  });

  it('leaves other routes alone, and lets requests through once capacity is back', async () => {
    expect((await http(url, '/.well-known/jwks.json', { method: 'GET' })).status).to.equal(200);
    saturated = false;
    expect((await postJson(url, '/auth/sign-in', { email: 'ada@example.com', password: 'x' })).status).to.equal(401);
    expect(handled).to.equal(1);
  });
});
