import { connect } from 'node:net';
import { expect } from 'chai';
import type { FastifyInstance } from 'fastify';
import { ServiceUnavailable } from '../../src/application/errors.js';
import { InvalidCredentials } from '../../src/domain/domain-error.js';
import type { HttpObserver } from '../../src/interfaces/http/http-observer.js';
import { buildHttpServer } from '../../src/interfaces/http/server.js';
import { ShutdownState } from '../../src/interfaces/http/shutdown-state.js';
import { http, postJson } from '../support/http-client.js';
import { httpServerOptions } from '../support/http-server-options.js';
import { captureLogs } from '../support/log-capture.js';

const SHED_BODY = { message: 'Service temporarily unavailable', code: 'OVERLOADED', errors: [{ field: null, message: 'try again shortly' }] };
const PER_ANSWER = new Set(['x-request-id', 'date', 'content-length', 'content-type', 'connection', 'keep-alive', 'retry-after', 'cache-control']);
const fixedHeaders = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_ANSWER.has(name)));

/** Sends raw bytes on one connection and resolves with everything read once `responses` shed bodies have arrived. */
function onOneConnection(url: string, bytes: string, responses: number): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (text.split(JSON.stringify(SHED_BODY)).length > responses) {
        socket.end();
        resolve(text);
      }
    });
    socket.on('error', reject);
  });
}

describe('HTTP: load shedding at the edge, before Fastify', () => {
  let app: FastifyInstance;
  let url: string;
  let saturated = true;
  const logs = captureLogs('debug');
  const answeredBy = () => logs.parsed().map((line) => (line['msg'] === 'request shed at the edge' ? 'edge' : line['msg'] === 'request completed' ? 'fastify' : 'other'));
  const shutdown = new ShutdownState();
  const observed: string[] = [];
  const observer: HttpObserver = {
    declareAuthOutcomes: () => undefined,
    requestCompleted: (sample) => void observed.push(`${sample.method} ${sample.route} ${sample.status}`),
    authAttempted: (operation, outcome) => void observed.push(`${operation} ${outcome}`),
  };

  before(async () => {
    const admission = { admit: () => { if (saturated) throw new ServiceUnavailable('overloaded', 1); } };
    const refuse = { execute: () => Promise.reject(new InvalidCredentials()) };
    app = buildHttpServer(httpServerOptions(logs.logger, { useCases: { signUp: refuse, signIn: refuse, admission }, operations: { observer, shutdown } }));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => app.close());
  beforeEach(() => {
    observed.length = 0;
    logs.lines.length = 0;
  });

  it('answers a refused sign-up or sign-in with the table\'s 503 and every header a Fastify answer carries, without reaching Fastify', async () => {
    const fromFastify = await http(url, '/.well-known/jwks.json', { method: 'GET' });
    logs.lines.length = 0;
    observed.length = 0;
    for (const path of ['/auth/sign-up', '/auth/sign-in?source=app']) {
      const res = await postJson(url, path, { email: 'not even valid' }, { 'x-request-id': 'edge-1' });
      expect(res.status, path).to.equal(503);
      expect(res.body).to.deep.equal(SHED_BODY);
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
      expect(res.headers['x-request-id']).to.equal('edge-1');
      expect(fixedHeaders(res.headers)).to.deep.equal(fixedHeaders(fromFastify.headers));
    }
    expect((await postJson(url, '/auth/sign-in', {})).headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    expect(answeredBy()).to.deep.equal(['edge', 'edge', 'edge']);
    expect(observed).to.deep.equal(['POST /auth/sign-up 503', 'sign_up shed', 'POST /auth/sign-in 503', 'sign_in shed', 'POST /auth/sign-in 503', 'sign_in shed']);
  });

  it('keeps the connection: two shed requests with bodies on one socket get two answers', async () => {
    const body = JSON.stringify({ email: 'ada@example.com', password: 'x'.repeat(2000) });
    const request = `POST /auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const text = await onOneConnection(url, request + request, 2);
    expect(text.match(/HTTP\/1\.1 503 /g)).to.have.length(2);
    expect(text).to.not.match(/connection: close/i);
  });

  it('leaves other routes and methods to Fastify, and lets sign-ins through once capacity is back', async () => {
    expect((await http(url, '/auth/sign-in', { method: 'GET' })).status).to.equal(404);
    expect((await http(url, '/.well-known/jwks.json', { method: 'GET' })).status).to.equal(200);
    saturated = false;
    expect((await postJson(url, '/auth/sign-in', { email: 'ada@example.com', password: 'x' })).status).to.equal(401);
    expect(answeredBy()).to.deep.equal(['fastify', 'fastify', 'fastify']);
    saturated = true;
  });

  it('while shutting down, leaves the refusal to Fastify (503 shutting down, connection closed)', async () => {
    shutdown.stop();
    const res = await postJson(url, '/auth/sign-in', { email: 'ada@example.com', password: 'x' });
    expect(res.status).to.equal(503);
    expect(res.body.errors).to.deep.equal([{ field: null, message: 'shutting down' }]);
    expect(res.headers['connection']).to.equal('close');
    expect(answeredBy()).to.include('fastify').and.not.include('edge');
  });
});

describe('HTTP: load shedding at the edge, for a browser app (CORS_ORIGINS set)', () => {
  let app: FastifyInstance;
  let url: string;
  const logs = captureLogs('debug');
  const corsHeaders = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'));

  before(async () => {
    const admission = { admit: () => { throw new ServiceUnavailable('overloaded', 1); } };
    app = buildHttpServer(httpServerOptions(logs.logger, { useCases: { admission }, cors: { origins: ['http://app.test'] } }));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => app.close());

  it('gives an allowed origin the same CORS headers as a Fastify answer, so the page can read the 503 and its Retry-After', async () => {
    const fromFastify = await http(url, '/.well-known/jwks.json', { method: 'GET', headers: { origin: 'http://app.test' } });
    expect(fromFastify.headers['access-control-allow-origin']).to.equal('http://app.test');
    const shed = await postJson(url, '/auth/sign-in', { email: 'ada@example.com', password: 'x' }, { origin: 'http://app.test' });
    expect(shed.status).to.equal(503);
    expect(logs.parsed().some((line) => line['msg'] === 'request shed at the edge')).to.equal(true);
    expect(corsHeaders(shed.headers)).to.deep.equal(corsHeaders(fromFastify.headers));
    expect(String(shed.headers['access-control-expose-headers'])).to.include('Retry-After');
  });

  it('gives any other origin, or no origin, no CORS headers at all', async () => {
    for (const headers of [{ origin: 'http://evil.test' }, {}]) {
      const shed = await postJson(url, '/auth/sign-up', { email: 'ada@example.com' }, headers);
      expect(shed.status).to.equal(503);
      expect(corsHeaders(shed.headers)).to.deep.equal({});
    }
  });
});
