import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { FastifyInstance } from 'fastify';
import type { SignInCommand } from '../../src/application/use-cases/sign-in/sign-in.handler.js';
import { LmdbStore } from '../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbTables } from '../../src/infrastructure/lmdb/lmdb-tables.js';
import { readable } from '../support/sealed-store.js';
import { StoreUserRepository } from '../../src/infrastructure/storage/store-user.repository.js';
import { GENERATED_KEY_FILE } from '../../src/infrastructure/security/signing-key.js';
import { GENERATED_PERSONAL_DATA_KEY_FILE } from '../../src/infrastructure/security/personal-data-keys.js';
import { httpServerOptions } from '../support/http-server-options.js';
import { buildHttpServer } from '../../src/interfaces/http/server.js';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { captureLogs } from '../support/log-capture.js';
import { type TestService, startTestService } from '../support/test-service.js';

const PASSWORDS = ['analytical engine 1843', 'compiler pioneer 1952', 'wrong horse battery 9', 'Password123', 'short'];

const failingHandler = {
  execute: (command: SignInCommand) =>
    Promise.reject(Object.assign(new Error('store write failed'), { command, context: { passwordHash: '$argon2id$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA' } })),
};

describe('HTTP: secrets never reach the log (LOG_LEVEL=debug)', () => {
  const logs = captureLogs('debug');
  let service: TestService;
  let broken: FastifyInstance;
  const tokens: string[] = [];
  let internalError: { status: number; text: string; body: unknown };

  before(async function () {
    this.timeout(30_000);
    service = await startTestService({ LOG_LEVEL: 'debug', THROTTLE_MAX_FAILURES: '2' }, { logger: logs.logger });
    const signUp = (body: Record<string, unknown>) => postJson(service.url, '/auth/sign-up', body);
    const signIn = (email: string, password: string, headers: Record<string, string> = {}) => postJson(service.url, '/auth/sign-in', { email, password }, headers);

    for (const [email, password] of [['ada@example.com', PASSWORDS[0]], ['grace@example.com', PASSWORDS[1]]] as const) {
      tokens.push((await signUp(aSignUpBody({ email, password }))).body.data.accesstoken);
    }
    const signedIn = await signIn('ada@example.com', PASSWORDS[0] ?? '', { authorization: `Bearer ${tokens[0] ?? ''}`, cookie: `session=${tokens[1] ?? ''}` });
    tokens.push(signedIn.body.data.accesstoken);
    const statuses = [
      signedIn.status,
      (await signIn('ada@example.com', PASSWORDS[2] ?? '')).status,
      (await signIn('ada@example.com', PASSWORDS[2] ?? '')).status,
      (await signIn('ada@example.com', PASSWORDS[0] ?? '')).status,
      (await signIn('nobody@example.com', PASSWORDS[2] ?? '')).status,
      (await signUp(aSignUpBody({ email: 'ada@example.com', password: PASSWORDS[0] }))).status,
      (await signUp(aSignUpBody({ email: 'new@example.com', password: PASSWORDS[3] }))).status,
      (await signUp(aSignUpBody({ email: 'not an email', password: PASSWORDS[4] }))).status,
      (await http(service.url, '/auth/sign-in', { body: `{"password": "${PASSWORDS[0] ?? ''}"`, headers: { 'content-type': 'application/json' } })).status,
    ];
    expect(statuses).to.deep.equal([201, 401, 401, 429, 401, 409, 400, 400, 400]);

    broken = buildHttpServer(httpServerOptions(logs.logger, { useCases: { signUp: failingHandler, signIn: failingHandler } }));
    const brokenUrl = await broken.listen({ port: 0, host: '127.0.0.1' });
    internalError = await postJson(brokenUrl, '/auth/sign-in', { email: 'ada@example.com', password: PASSWORDS[0] });
  });

  after(async () => {
    await broken.close();
    await service.dispose();
  });

  const secrets = async (): Promise<string[]> => {
    const store = LmdbStore.open(service.dataDir);
    try {
      const users = new StoreUserRepository(readable(new LmdbTables(store), service.dataDir));
      const hashes = await Promise.all(['ada@example.com', 'grace@example.com'].map(async (email) => (await users.findByEmail(email))?.passwordHash ?? ''));
      const pem = readFileSync(join(service.dataDir, GENERATED_KEY_FILE), 'utf8');
      const pemLines = pem.split('\n').filter((line) => line.length > 20 && !line.startsWith('-----'));
      const personalDataKey = readFileSync(join(service.dataDir, GENERATED_PERSONAL_DATA_KEY_FILE), 'utf8').trim();
      return [...PASSWORDS, ...hashes, ...tokens, ...pemLines, personalDataKey, '$argon2', 'PRIVATE KEY'];
    } finally {
      await store.close();
    }
  };

  it('answers an internal error with the generic 500 body only', () => {
    expect(internalError.status).to.equal(500);
    expect(internalError.body).to.deep.equal({ message: 'Internal server error', code: 'INTERNAL', errors: [] });
    expect(internalError.text).not.to.include('store write failed');
  });

  it('logs every request and the internal error, with its request id', () => {
    const lines = logs.parsed();
    expect(lines.filter((line) => line['msg'] === 'request completed')).to.have.length.at.least(11);
    const error = lines.find((line) => line['msg'] === 'unexpected error');
    expect(error?.['level']).to.equal(50);
    expect(error?.['reqId']).to.be.a('string');
    expect(JSON.stringify(error)).to.include('store write failed');
  });

  it('never writes a password, hash, token or private key in any line', async () => {
    const all = await secrets();
    expect(all.filter((secret) => secret.length > 0)).to.have.length.at.least(PASSWORDS.length + 2 + 3 + 3);
    for (const line of logs.lines) {
      for (const secret of all) expect(line, `a log line contains ${secret.slice(0, 12)}…`).not.to.include(secret);
    }
  });
});
