import { Agent, request } from 'node:http';
import { expect } from 'chai';
import { createLogger } from '../../src/infrastructure/logging/logger.js';
import { httpServerOptions } from '../support/http-server-options.js';
import { buildHttpServer } from '../../src/interfaces/http/server.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

const send = (agent: Agent, url: string, method: string, body?: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = request(url, { agent, method, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });

describe('HTTP: a request arriving while the server closes', () => {
  it('finishes the request in flight, and answers the next one on the same connection 503 in the envelope, with its request id', async () => {
    const user = { id: '1', name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com' };
    const slow = { execute: () => new Promise((resolve) => setTimeout(resolve, 300)).then(() => ({ user, accessToken: 't' })) };
    const app = buildHttpServer(httpServerOptions(createLogger('silent'), { useCases: { signUp: slow, signIn: slow } }));
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const inFlight = send(agent, `${url}/auth/sign-in`, 'POST', '{"email":"ada@example.com","password":"analytical engine"}');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const closing = app.close();
      const late = await send(agent, `${url}/auth/sign-in`, 'POST', '{}');

      expect((await inFlight).status).to.equal(201);
      expect(late.status).to.equal(503);
      expect(late.headers['connection']).to.equal('close');
      expect(late.headers['x-request-id']).to.be.a('string');
      expect(JSON.parse(late.body)).to.deep.equal({ message: 'Service temporarily unavailable', errors: [{ field: null, message: 'shutting down' }] });
      await closing;
    } finally {
      agent.destroy();
      await app.close();
    }
  });
});
