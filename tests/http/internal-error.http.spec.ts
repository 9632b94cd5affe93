import { Writable } from 'node:stream';
import { expect } from 'chai';
import type { FastifyInstance } from 'fastify';
import { createLogger } from '../../src/infrastructure/logging/logger.js';
import { buildHttpServer } from '../../src/interfaces/http/server.js';
import { httpServerOptions } from '../support/http-server-options.js';
import { aSignUpBody } from '../support/builders.js';
import { postJson } from '../support/http-client.js';

class Capture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  }
}

describe('HTTP: an unexpected failure', () => {
  let app: FastifyInstance;
  let url: string;
  const logs = new Capture();
  const failure = new Error('driver says: connection to db-7.internal:27017 refused');

  before(async () => {
    app = buildHttpServer(
      httpServerOptions(createLogger('info', logs), {
        useCases: { signUp: { execute: () => Promise.reject(failure) }, signIn: { execute: () => Promise.reject(failure) } },
      }),
    );
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => app.close());

  it('answers 500 with a generic envelope, and logs the cause with the request id', async () => {
    const res = await postJson(url, '/auth/sign-up', aSignUpBody(), { 'x-request-id': 'req-500-test' });

    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({ message: 'Internal server error', code: 'INTERNAL', errors: [] });
    expect(res.text).not.to.match(/driver|db-7|27017|stack/i);
    const logged = logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line['msg'] === 'unexpected error');
    expect(logged).to.include({ reqId: 'req-500-test' });
    expect(JSON.stringify(logged)).to.include('connection to db-7.internal:27017 refused');
  });

  it('logs one line per request with request id, method, route, status and duration', async () => {
    await postJson(url, '/auth/sign-in', { email: 'a@example.com', password: 'whatever1' }, { 'x-request-id': 'req-log-line' });
    const lines = logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['reqId'] === 'req-log-line');
    const completed = lines.filter((line) => line['msg'] === 'request completed');
    expect(completed).to.have.length(1);
    expect(completed[0]).to.include({ method: 'POST', route: '/auth/sign-in', status: 500 });
    expect(completed[0]?.['durationMs']).to.be.a('number');
    expect(JSON.stringify(lines)).not.to.include('whatever1');
  });
});
