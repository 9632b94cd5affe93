import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { GENERATED_KEY_FILE } from '../../src/infrastructure/security/signing-key.js';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const INVALID_CREDENTIALS = { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS', errors: [{ field: null, message: 'email or password is incorrect' }] };

describe('HTTP: POST /auth/sign-up and /auth/sign-in (real server, LMDB, argon2, JWT)', () => {
  let service: TestService;
  before(async () => (service = await startTestService()));
  after(async () => service.dispose());

  let n = 0;
  const freshEmail = () => `user${++n}-${Date.now()}@example.com`;
  const signUp = (body: Record<string, unknown>) => postJson(service.url, '/auth/sign-up', body);
  const signIn = (body: Record<string, unknown>) => postJson(service.url, '/auth/sign-in', body);

  describe('success', () => {
    it('sign-up answers 201 with exactly the documented envelope, normalised, and nothing secret', async () => {
      const email = freshEmail();
      const res = await signUp(aSignUpBody({ name: ' Ada ', email: `  ${email.toUpperCase()} `, role: 'admin' }));

      expect(res.status).to.equal(201);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(Object.keys(res.body)).to.deep.equal(['message', 'data']);
      expect(res.body.message).to.equal('User created successfully');
      expect(Object.keys(res.body.data)).to.deep.equal(['user', 'accesstoken', 'refreshtoken', 'expiresin']);
      expect(res.body.data.expiresin).to.equal(900);
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers['pragma']).to.equal('no-cache');
      expect(res.body.data.user).to.deep.equal({ id: res.body.data.user.id, name: 'Ada', lastname: 'Lovelace', email, emailverified: false });
      expect(res.body.data.user.id).to.match(/^[0-9a-f-]{36}$/);
      expect(res.text).not.to.match(/argon2|analytical engine|admin/);
    });

    it('sign-in answers 201 with the same envelope and message, for any case of the e-mail', async () => {
      const email = freshEmail();
      const created = await signUp(aSignUpBody({ email }));
      const res = await signIn({ email: email.toUpperCase(), password: 'analytical engine 1843' });

      expect(res.status).to.equal(201);
      expect(res.body.message).to.equal('User created successfully');
      expect(res.body.data.user).to.deep.equal(created.body.data.user);
      expect(res.body.data.accesstoken).to.be.a('string').and.not.equal(created.body.data.accesstoken);
    });

    it('issues an ES256 JWT with kid, sub, iat, exp (15 min), iss, aud and jti', async () => {
      const res = await signUp(aSignUpBody({ email: freshEmail() }));
      const publicKey = createPublicKey(readFileSync(join(service.dataDir, GENERATED_KEY_FILE), 'utf8'));
      const token: string = res.body.data.accesstoken;
      const decoded = jwt.verify(token, publicKey, { algorithms: ['ES256'], issuer: 'account-service', audience: 'account-service', complete: true });
      const claims = decoded.payload as jwt.JwtPayload;

      expect(decoded.header).to.include({ alg: 'ES256' });
      expect(decoded.header.kid).to.be.a('string').with.length.greaterThan(20);
      expect(claims.sub).to.equal(res.body.data.user.id);
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).to.equal(900);
      expect(claims.jti).to.be.a('string');
    });

    it('accepts application/json with a charset', async () => {
      const res = await http(service.url, '/auth/sign-up', {
        body: JSON.stringify(aSignUpBody({ email: freshEmail() })),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(res.status).to.equal(201);
    });

    it('accepts the charset spelled UTF-8 or quoted, and refuses any other charset with 415 (the body is read as UTF-8)', async () => {
      for (const contentType of ['application/json; charset=UTF-8', 'application/json;charset="utf-8"']) {
        const res = await http(service.url, '/auth/sign-up', { body: JSON.stringify(aSignUpBody({ email: freshEmail() })), headers: { 'content-type': contentType } });
        expect(res.status, contentType).to.equal(201);
      }
      for (const contentType of ['application/json; charset=utf-16', 'application/json; charset=iso-8859-1', 'application/json; charset=']) {
        const body = Buffer.from(JSON.stringify(aSignUpBody({ email: freshEmail() })), contentType.endsWith('utf-16') ? 'utf16le' : 'latin1');
        const res = await http(service.url, '/auth/sign-up', { body, headers: { 'content-type': contentType } });
        expect(res.status, contentType).to.equal(415);
        expect(res.body).to.deep.equal({ message: 'Unsupported media type', code: 'UNSUPPORTED_MEDIA_TYPE', errors: [{ field: null, message: 'Content-Type must be application/json' }] });
      }
    });

    it('answers every request with an X-Request-Id, keeping a sane one the client sent', async () => {
      const res = await signIn({ email: freshEmail(), password: 'whatever password' });
      expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      const echoed = await postJson(service.url, '/auth/sign-in', {}, { 'x-request-id': 'trace-123' });
      expect(echoed.headers['x-request-id']).to.equal('trace-123');
    });
  });

  describe('errors (every row of the table)', () => {
    it('400 lists every offending field at once, one entry each', async () => {
      const res = await signUp({ name: '', lastname: 42, email: 'not-an-email', password: 'short' });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'Invalid input data',
        code: 'INVALID_INPUT',
        errors: [
          { field: 'name', code: 'REQUIRED', message: 'is required' },
          { field: 'lastname', code: 'NOT_A_STRING', message: 'must be a string' },
          { field: 'email', code: 'INVALID_FORMAT', message: 'must be a valid email address' },
          { field: 'password', code: 'TOO_SHORT', message: 'must be at least 8 characters' },
        ],
      });
    });

    it('400 for missing fields', async () => {
      const res = await signIn({});
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'Invalid input data',
        code: 'INVALID_INPUT',
        errors: [
          { field: 'email', code: 'REQUIRED', message: 'is required' },
          { field: 'password', code: 'REQUIRED', message: 'is required' },
        ],
      });
    });

    for (const [label, raw] of [
      ['malformed JSON', '{"email": '],
      ['an empty body', ''],
      ['a JSON array', '[]'],
      ['a JSON string', '"hello"'],
      ['JSON null', 'null'],
      ['a __proto__ key', '{"__proto__": {"admin": true}, "email": "a@example.com", "password": "12345678"}'],
    ] as const) {
      it(`400 with a body-level entry for ${label}`, async () => {
        const res = await http(service.url, '/auth/sign-in', { body: raw, headers: { 'content-type': 'application/json' } });
        expect(res.status).to.equal(400);
        expect(res.body.message).to.equal('Invalid input data');
        expect(res.body.errors).to.have.length(1);
        expect(res.body.errors[0].field).to.equal(null);
      });
    }

    it('415 when Content-Type is not JSON, or missing', async () => {
      const plain = await http(service.url, '/auth/sign-up', { body: JSON.stringify(aSignUpBody()), headers: { 'content-type': 'text/plain' } });
      const missing = await http(service.url, '/auth/sign-up', { body: JSON.stringify(aSignUpBody()) });
      const form = await http(service.url, '/auth/sign-in', { body: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      for (const res of [plain, missing, form]) {
        expect(res.status).to.equal(415);
        expect(res.body).to.deep.equal({ message: 'Unsupported media type', code: 'UNSUPPORTED_MEDIA_TYPE', errors: [{ field: null, message: 'Content-Type must be application/json' }] });
      }
    });

    it('413 for a body over 16 KiB', async () => {
      const res = await signUp(aSignUpBody({ email: freshEmail(), padding: 'x'.repeat(17 * 1024) }));
      expect(res.status).to.equal(413);
      expect(res.body).to.deep.equal({ message: 'Request body is too large', code: 'BODY_TOO_LARGE', errors: [{ field: null, message: 'body exceeds the size limit' }] });
    });

    it('409 for an e-mail already registered, in any case', async () => {
      const email = freshEmail();
      expect((await signUp(aSignUpBody({ email }))).status).to.equal(201);
      const res = await signUp(aSignUpBody({ email: email.toUpperCase(), password: 'another password 99' }));
      expect(res.status).to.equal(409);
      expect(res.body).to.deep.equal({ message: 'Email is already registered', code: 'EMAIL_ALREADY_REGISTERED', errors: [{ field: 'email', code: 'ALREADY_USED', message: 'is already registered' }] });
    });

    it('409 for a look-alike of a registered e-mail (full-width domain or letters, the Kelvin sign), and the look-alike signs in to the one account', async () => {
      const local = `kate${++n}-${Date.now()}`;
      const email = `${local}@example.com`;
      const up = await signUp(aSignUpBody({ email }));
      expect(up.status).to.equal(201);
      const fullWidth = (text: string) => [...text].map((char) => (/[a-z]/.test(char) ? String.fromCodePoint(char.codePointAt(0)! + 0xfee0) : char)).join('');
      for (const lookAlike of [`${local}@${fullWidth('example')}.com`, `${fullWidth(local)}@example.com`, `\u212a${local.slice(1)}@example.com`, `${local}@EXAMPLE\uff0ecom`]) {
        const res = await signUp(aSignUpBody({ email: lookAlike, password: 'another password 99' }));
        expect(res.status, lookAlike).to.equal(409);
        expect(res.body, lookAlike).to.deep.equal({ message: 'Email is already registered', code: 'EMAIL_ALREADY_REGISTERED', errors: [{ field: 'email', code: 'ALREADY_USED', message: 'is already registered' }] });
      }
      const signedIn = await signIn({ email: `\u212a${local.slice(1)}@${fullWidth('example')}.com`, password: aSignUpBody().password });
      expect(signedIn.status, signedIn.text).to.equal(201);
      expect(signedIn.body.data.user).to.deep.include({ id: up.body.data.user.id, email });
    });

    it('401 with byte-for-byte the same body for a wrong password and an unknown e-mail', async () => {
      const email = freshEmail();
      await signUp(aSignUpBody({ email }));
      const wrong = await signIn({ email, password: 'not the password' });
      const unknown = await signIn({ email: freshEmail(), password: 'not the password' });

      expect(wrong.status).to.equal(401);
      expect(unknown.status).to.equal(401);
      expect(wrong.text).to.equal(unknown.text);
      expect(wrong.body).to.deep.equal(INVALID_CREDENTIALS);
    });

    it('404 for an unknown route or method, in the envelope', async () => {
      for (const res of [await http(service.url, '/auth/nope', { method: 'GET' }), await http(service.url, '/auth/sign-in', { method: 'GET' })]) {
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ message: 'Not found', code: 'NOT_FOUND', errors: [{ field: null, message: 'no such route or method' }] });
      }
    });

    it('404 for an unknown route whatever its body: no content type, another one, malformed JSON, a form', async () => {
      const bodies: [string | Buffer, Record<string, string>][] = [
        ['plain words', { 'content-type': 'text/plain' }],
        ['<a/>', { 'content-type': 'application/xml' }],
        ['{"unterminated', { 'content-type': 'application/json' }],
        ['a=1&a=2', { 'content-type': 'application/x-www-form-urlencoded' }],
        [Buffer.from([0xff, 0xfe]), { 'content-type': 'application/json; charset=latin1' }],
        ['bytes', {}],
      ];
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        for (const [body, headers] of bodies) {
          for (const path of ['/auth/nope', '/nowhere']) {
            const res = await http(service.url, path, { method, body, headers });
            expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).to.equal(404);
            expect(res.body).to.deep.equal({ message: 'Not found', code: 'NOT_FOUND', errors: [{ field: null, message: 'no such route or method' }] });
          }
        }
      }
    });
  });

  describe('concurrency', () => {
    it('many simultaneous sign-ups of one e-mail yield exactly one 201, the rest 409', async () => {
      const email = freshEmail();
      const responses = await Promise.all(Array.from({ length: 25 }, () => signUp(aSignUpBody({ email }))));
      const statuses = responses.map((res) => res.status);
      expect(statuses.filter((status) => status === 201)).to.have.length(1);
      expect(statuses.filter((status) => status === 409)).to.have.length(24);
    });
  });
});
