import { once } from 'node:events';
import { connect } from 'node:net';
import { expect } from 'chai';
import { httpServerOptions } from '../support/http-server-options.js';
import { buildHttpServer } from '../../src/interfaces/http/server.js';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { captureLogs } from '../support/log-capture.js';
import { type TestService, startTestService } from '../support/test-service.js';

const json = { 'content-type': 'application/json' };

const expectBodyLevel400 = (res: { status: number; body: any }) => {
  expect(res.status).to.equal(400);
  expect(res.body.message).to.equal('Invalid input data');
  expect(res.body.errors).to.be.an('array').with.length.greaterThan(0);
};

describe('HTTP: hostile input', () => {
  let service: TestService;
  let large: TestService;
  before(async () => {
    service = await startTestService({ RATE_LIMIT_MAX: '10000' });
    large = await startTestService({ RATE_LIMIT_MAX: '10000', BODY_LIMIT_BYTES: String(1024 * 1024) });
  });
  after(async () => {
    await service.dispose();
    await large.dispose();
  });

  it('refuses __proto__ and constructor.prototype keys, at any depth, and never pollutes Object.prototype', async () => {
    for (const raw of [
      '{"__proto__": {"polluted": true}, "email": "a@example.com", "password": "12345678"}',
      '{"email": "a@example.com", "password": "12345678", "constructor": {"prototype": {"polluted": true}}}',
      '{"email": "a@example.com", "password": "12345678", "deep": [{"x": {"__proto__": {"polluted": true}}}]}',
    ]) {
      const res = await http(service.url, '/auth/sign-in', { body: raw, headers: json });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Invalid input data', code: 'MALFORMED_BODY', errors: [{ field: null, message: 'body is not valid JSON' }] });
    }
    expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
  });

  it('answers deeply nested JSON with a 4xx and keeps serving', async () => {
    const depth = 100_000;
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const asField = `{"email": ${nested}, "password": "x"}`;
    const answers = [
      await http(service.url, '/auth/sign-in', { body: `${'['.repeat(10_000)}${']'.repeat(10_000)}`, headers: json }),
      await http(large.url, '/auth/sign-in', { body: nested, headers: json }),
      await http(large.url, '/auth/sign-up', { body: asField, headers: json }),
    ];
    for (const res of answers) {
      expect(res.status).to.be.within(400, 499);
      expect(res.body).to.have.keys('message', 'code', 'errors');
    }
    expect((await postJson(large.url, '/auth/sign-up', aSignUpBody({ email: 'still-up@example.com' }))).status).to.equal(201);
  });

  it('answers a huge body with 413 without reading it all', async () => {
    const res = await http(service.url, '/auth/sign-up', { body: `{"name": "${'x'.repeat(256 * 1024)}"}`, headers: json });
    expect(res.status).to.equal(413);
    expect(res.body).to.deep.equal({ message: 'Request body is too large', code: 'BODY_TOO_LARGE', errors: [{ field: null, message: 'body exceeds the size limit' }] });
  });

  it('refuses bytes that are not valid UTF-8 instead of turning them into U+FFFD', async () => {
    for (const bytes of [Buffer.from([0xff]), Buffer.from([0xc3, 0x28]), Buffer.from([0xed, 0xa0, 0x80])]) {
      const body = Buffer.concat([Buffer.from('{"name":"Ada","lastname":"Lovelace","email":"a'), bytes, Buffer.from('@example.com","password":"analytical engine 1843"}')]);
      const res = await http(service.url, '/auth/sign-up', { body, headers: json });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Invalid input data', code: 'MALFORMED_BODY', errors: [{ field: null, message: 'body is not valid JSON' }] });
    }
  });

  it('refuses lone surrogates written as JSON escapes, field by field', async () => {
    const raw = '{"name":"Ad\\ud800a","lastname":"Lovelace","email":"ada\\udfff@example.com","password":"analytical \\ud83d engine"}';
    const res = await http(service.url, '/auth/sign-up', { body: raw, headers: json });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      message: 'Invalid input data',
      code: 'INVALID_INPUT',
      errors: [
        { field: 'name', code: 'INVALID_CHARACTERS', message: 'must be valid Unicode text' },
        { field: 'email', code: 'INVALID_CHARACTERS', message: 'must be valid Unicode text' },
        { field: 'password', code: 'INVALID_CHARACTERS', message: 'must be valid Unicode text' },
      ],
    });
  });

  it('refuses an address that looks like another one: each invisible character, in the local part or the domain, is a 400 and no account', async () => {
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: 'victim@example.com' }))).status).to.equal(201);
    const invisible = ['\u3164', '\uffa0', '\u115f', '\u1160', '\ufe0f', '\u034f', '\u180b', '\u2800'];
    for (const char of invisible) {
      for (const email of [`victim${char}@example.com`, `victim@exam${char}ple.com`]) {
        const res = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }));
        expect(res.status, `U+${char.codePointAt(0)?.toString(16)} in ${email.indexOf(char) < 6 ? 'the local part' : 'the domain'}`).to.equal(400);
        expect(res.body.errors).to.deep.equal([{ field: 'email', code: 'INVALID_CHARACTERS', message: 'must not contain control, invisible or unassigned characters' }]);
      }
    }
  });

  it('answers in the documented envelope what is refused before any route: a 100 kB header (431), an over-long path parameter (414), a malformed percent-encoding (400)', async () => {
    const huge = await http(service.url, '/auth/me', { method: 'GET', headers: { authorization: `Bearer ${'a'.repeat(100_000)}` } });
    expect(huge.status).to.equal(431);
    expect(huge.body).to.deep.equal({ message: 'Request header fields too large', code: 'HEADERS_TOO_LARGE', errors: [{ field: null, message: 'the request headers exceed the size limit' }] });
    const long = `/auth/sessions/${'a'.repeat(120)}`;
    const tooLong = await http(service.url, long, { method: 'DELETE' });
    expect(tooLong.status).to.equal(414);
    expect(tooLong.body).to.deep.equal({ message: 'URI too long', code: 'URI_TOO_LONG', errors: [{ field: null, message: 'a path segment exceeds 100 characters' }] });
    expect(tooLong.headers['x-request-id']).to.be.a('string');
    for (const path of ['/auth/sessions/%', '/auth/sessions/%E0%A4%A']) {
      const bad = await http(service.url, path, { method: 'DELETE' });
      expect(bad.status, path).to.equal(400);
      expect(bad.body, path).to.deep.equal({ message: 'Invalid input data', code: 'MALFORMED_URL', errors: [{ field: null, message: 'the URL is not valid percent-encoding' }] });
      expect(bad.text, 'never echoes the path').to.not.include('%E0');
    }
    expect((await http(service.url, '/health/live', { method: 'GET' })).status, 'still serving').to.equal(200);
  });

  it('refuses operator-looking values: every field must be a string', async () => {
    const signIn = await postJson(service.url, '/auth/sign-in', { email: { $gt: '' }, password: { $ne: null } });
    expect(signIn.body).to.deep.equal({
      message: 'Invalid input data',
      code: 'INVALID_INPUT',
      errors: [
        { field: 'email', code: 'NOT_A_STRING', message: 'must be a string' },
        { field: 'password', code: 'NOT_A_STRING', message: 'must be a string' },
      ],
    });
    const signUp = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: { $regex: '.*' }, name: ['Ada'] }));
    expectBodyLevel400(signUp);
    expect(signUp.body.errors).to.deep.equal([
      { field: 'name', code: 'NOT_A_STRING', message: 'must be a string' },
      { field: 'email', code: 'NOT_A_STRING', message: 'must be a string' },
    ]);
  });
});

describe('HTTP: slow clients', () => {
  it('answers 408 and closes a connection that stalls in the middle of a request (connection timeout)', async function () {
    this.timeout(10_000);
    const app = buildHttpServer(httpServerOptions(captureLogs('silent').logger, { timeoutsMs: { connection: 300, request: 300 } }));
    const url = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    try {
      const socket = connect(Number(url.port), url.hostname);
      await once(socket, 'connect');
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.write('POST /auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em');
      const closed = await Promise.race([once(socket, 'close').then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);
      socket.destroy();
      expect(closed, 'the server closed the stalled connection').to.equal(true);
      expect(answer, 'after answering 408').to.match(/^HTTP\/1\.1 408 /);
    } finally {
      await app.close();
    }
  });
});
