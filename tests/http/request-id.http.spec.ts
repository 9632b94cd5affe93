import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { LmdbTables } from '../../src/infrastructure/lmdb/lmdb-tables.js';
import { readable } from '../support/sealed-store.js';
import { StoreEventLog } from '../../src/infrastructure/storage/store-event-log.js';
import { LmdbStore } from '../../src/infrastructure/lmdb/lmdb-store.js';
import { createLogger } from '../../src/infrastructure/logging/logger.js';
import { httpServerOptions } from '../support/http-server-options.js';
import { buildHttpServer } from '../../src/interfaces/http/server.js';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { startTestService } from '../support/test-service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A logger whose JSON lines the test can read. */
const capturingLogger = () => {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', stream), lines };
};

describe('HTTP: request ids on every response, log line and event', () => {
  it('answers 201, 400, 404, 415, 413 and the probes with X-Request-Id: the sane one sent, a new UUID otherwise', async () => {
    const service = await startTestService();
    try {
      const responses = [
        await postJson(service.url, '/auth/sign-up', aSignUpBody()),
        await postJson(service.url, '/auth/sign-in', {}),
        await http(service.url, '/nowhere', { method: 'GET' }),
        await http(service.url, '/auth/sign-in', { body: '{}', headers: { 'content-type': 'text/plain' } }),
        await postJson(service.url, '/auth/sign-in', { padding: 'x'.repeat(20_000) }),
        await http(service.url, '/health/ready', { method: 'GET' }),
        await http(service.url, '/metrics', { method: 'GET' }),
      ];
      expect(responses.map((res) => res.status)).to.deep.equal([201, 400, 404, 415, 413, 200, 200]);
      for (const res of responses) expect(res.headers['x-request-id']).to.match(UUID);
      expect(new Set(responses.map((res) => res.headers['x-request-id'])).size).to.equal(responses.length);

      const sent = await http(service.url, '/nowhere', { method: 'GET', headers: { 'x-request-id': 'edge-42.a:b_c' } });
      expect(sent.headers['x-request-id']).to.equal('edge-42.a:b_c');
      const insane = await http(service.url, '/nowhere', { method: 'GET', headers: { 'x-request-id': 'has spaces; and=more' } });
      expect(insane.headers['x-request-id']).to.match(UUID);
    } finally {
      await service.dispose();
    }
  });

  it('answers an unexpected failure with 500, the request id, and the same id on the error log line', async () => {
    const { logger, lines } = capturingLogger();
    const failing = { execute: () => Promise.reject(new Error('driver exploded')) };
    const app = buildHttpServer(httpServerOptions(logger, { useCases: { signUp: failing, signIn: failing } }));
    try {
      const res = await app.inject({ method: 'POST', url: '/auth/sign-up', headers: { 'x-request-id': 'boom-1' }, payload: aSignUpBody() });
      expect(res.statusCode).to.equal(500);
      expect(res.headers['x-request-id']).to.equal('boom-1');
      expect(res.json()).to.deep.equal({ message: 'Internal server error', code: 'INTERNAL', errors: [] });
      const error = lines.find((line) => line['msg'] === 'unexpected error');
      expect(error?.['reqId']).to.equal('boom-1');
      expect(JSON.stringify(res.json())).to.not.include('exploded');
    } finally {
      await app.close();
    }
  });

  it('writes the access line as pino writes it, field for field and in order, at info, and none for a quiet route (a probe)', async () => {
    const { logger, lines } = capturingLogger();
    const service = await startTestService({ LOG_LEVEL: 'info' }, { logger: logger.child({ instance: 'one' }) });
    try {
      await postJson(service.url, '/auth/sign-up', aSignUpBody(), { 'x-request-id': 'access-1' });
      await http(service.url, '/health/live', { method: 'GET' });
      const completed = lines.filter((line) => line['msg'] === 'request completed');
      expect(completed, JSON.stringify(completed)).to.have.length(1);
      const written = completed[0] ?? {};
      logger.child({ instance: 'one' }).info({ reqId: 'access-1', method: 'POST', route: '/auth/sign-up', status: 201, durationMs: written['durationMs'] }, 'request completed');
      const byPino = lines.at(-1) ?? {};
      expect(JSON.stringify({ ...written, time: 'T' })).to.equal(JSON.stringify({ ...byPino, time: 'T' }));
      expect(new Date(String(written['time'])).toISOString()).to.equal(written['time']);
      expect(written['durationMs']).to.be.a('number');
    } finally {
      await service.close();
    }
  });

  it('puts the request id on every log line of a request and in the metadata of the events it records', async () => {
    const { logger, lines } = capturingLogger();
    const service = await startTestService({ LOG_LEVEL: 'info' }, { logger });
    let userId: string;
    try {
      const created = await postJson(service.url, '/auth/sign-up', aSignUpBody(), { 'x-request-id': 'trace-signup' });
      userId = created.body.data.user.id;
      await postJson(service.url, '/auth/sign-in', { email: 'ada@example.com', password: 'wrong password' }, { 'x-request-id': 'trace-failed' });
      const completed = lines.filter((line) => line['msg'] === 'request completed');
      expect(completed.map((line) => line['reqId'])).to.deep.equal(['trace-signup', 'trace-failed']);
    } finally {
      await service.close();
    }
    const store = LmdbStore.open(service.dataDir);
    try {
      const page = await new StoreEventLog(readable(new LmdbTables(store), service.dataDir)).findByAggregate(userId, { limit: 10, cursor: null });
      const byType = Object.fromEntries(page.events.map((event) => [event.type, event.metadata.requestId]));
      expect(byType).to.deep.equal({ UserRegistered: 'trace-signup', EmailVerificationRequested: 'trace-signup', SessionStarted: 'trace-signup', SignInFailed: 'trace-failed' });
    } finally {
      await store.close();
      rmSync(service.dataDir, { recursive: true, force: true });
    }
  });
});
