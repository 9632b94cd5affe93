import { type Socket, connect } from 'node:net';
import { expect } from 'chai';
import { createLogger } from '../../src/infrastructure/logging/logger.js';
import { buildHttpServer } from '../../src/interfaces/http/server.js';
import { httpServerOptions } from '../support/http-server-options.js';

const post = (path: string, body: string, requestId: string) =>
  `POST ${path} HTTP/1.1\r\nHost: test\r\nX-Request-Id: ${requestId}\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** Everything the server sends on the connection until it closes it. */
const readUntilClosed = (socket: Socket): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });

/**
 * One TCP connection carries both requests, the second written while the first is still being answered, so the
 * server holds it before it starts closing. (An HTTP agent decides by timing whether it reuses its socket or opens
 * a new one after the listener is gone: that was a race, and this test no longer depends on it.)
 */
describe('HTTP: a request arriving while the server closes', () => {
  it('finishes the request in flight, and answers the next one on the same connection 503 in the envelope, then closes it', async () => {
    const user = { id: '1', name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', emailverified: false };
    let release = (): void => undefined;
    let markStarted = (): void => undefined;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const slow = {
      execute: () => {
        markStarted();
        return new Promise((resolve) => (release = () => resolve({ user, accessToken: 't', refreshToken: 'r', expiresIn: 900 })));
      },
    };
    const app = buildHttpServer(httpServerOptions(createLogger('silent'), { useCases: { signUp: slow, signIn: slow } }));
    const { port } = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    const socket = connect(Number(port), '127.0.0.1');
    try {
      const answers = readUntilClosed(socket);
      socket.write(post('/auth/sign-in', '{"email":"ada@example.com","password":"analytical engine"}', 'first'));
      await started;
      const closing = app.close();
      socket.write(post('/auth/sign-in', '{}', 'late'));
      await new Promise((resolve) => setImmediate(resolve));
      release();
      const [first, late] = (await answers).split(/(?=HTTP\/1\.1 )/);

      expect(first).to.match(/^HTTP\/1\.1 201 /);
      expect(first).to.match(/\r\nx-request-id: first\r\n/i);
      expect(late).to.match(/^HTTP\/1\.1 503 /);
      expect(late).to.match(/\r\nconnection: close\r\n/i);
      expect(late).to.match(/\r\nretry-after: 5\r\n/i);
      expect(late).to.match(/\r\nx-request-id: late\r\n/i);
      expect(JSON.parse(late?.split('\r\n\r\n')[1] ?? '')).to.deep.equal({
        message: 'Service temporarily unavailable',
        code: 'SHUTTING_DOWN',
        errors: [{ field: null, message: 'shutting down' }],
      });
      await closing;
    } finally {
      socket.destroy();
      await app.close();
    }
  });
});
