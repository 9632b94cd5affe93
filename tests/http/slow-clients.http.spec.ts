import { type Socket, connect } from 'node:net';
import { expect } from 'chai';
import { http } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const DEADLINES = { HEADERS_TIMEOUT_MS: '600', REQUEST_TIMEOUT_MS: '1200', IDLE_TIMEOUT_MS: '3000', KEEP_ALIVE_TIMEOUT_MS: '300', TIMEOUT_CHECK_INTERVAL_MS: '100' };
const CHECK_INTERVAL = 100;
const SLACK_MS = 400;

interface Ended {
  readonly afterMs: number;
  readonly answer: string;
}

/** Opens a socket, sends `head`, then one more byte of `drip` every 100 ms; resolves when the server closes it. */
const slowClient = (url: string, head: string, drip: string): Promise<Ended> => {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket: Socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < drip.length && !socket.destroyed) socket.write(drip[sent++] ?? '');
    }, 100);
    socket.once('connect', () => socket.write(head));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearInterval(timer);
      resolve({ afterMs: Date.now() - started, answer });
    });
    setTimeout(() => reject(new Error('the server kept a slow client for 10 s')), 10_000).unref();
  });
};

describe('HTTP: slow clients meet the documented deadlines', () => {
  let service: TestService;
  before(async () => (service = await startTestService({ ...DEADLINES, MAX_CONNECTIONS: '8' })));
  after(() => service.dispose());

  it('a slowloris client (headers a byte at a time) is cut at HEADERS_TIMEOUT_MS with 408', async () => {
    const ended = await slowClient(service.url, 'POST /auth/sign-in HTTP/1.1\r\nHost: x\r\n', 'X-Slow: ' + 'a'.repeat(200));
    expect(ended.answer).to.match(/^HTTP\/1\.1 408 /);
    expect(ended.afterMs).to.be.within(600, 600 + CHECK_INTERVAL + SLACK_MS);
  });

  it('a slow body is cut at REQUEST_TIMEOUT_MS with 408', async () => {
    const head = 'POST /auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n';
    const ended = await slowClient(service.url, head, `{"email":"${'a'.repeat(480)}`);
    expect(ended.answer).to.match(/^HTTP\/1\.1 408 /);
    expect(ended.afterMs).to.be.within(1200, 1200 + CHECK_INTERVAL + SLACK_MS);
  });

  it('an idle keep-alive socket after its answer is closed by REQUEST_TIMEOUT_MS at the latest', async () => {
    const ended = await slowClient(service.url, 'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n', '');
    expect(ended.answer).to.match(/^HTTP\/1\.1 200 /);
    expect(ended.afterMs).to.be.below(1200 + CHECK_INTERVAL + SLACK_MS);
  });

  it('past MAX_CONNECTIONS further connections are closed at once, and served again once sockets free up', async () => {
    const { port } = new URL(service.url);
    const idle = await Promise.all(
      Array.from({ length: 8 }, () => new Promise<Socket>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
      })),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = await http(service.url, '/health/live', { method: 'GET' }).then(() => 'served', (error: NodeJS.ErrnoException) => error.code);
      expect(refused).to.be.oneOf(['ECONNRESET', 'EPIPE']);
    } finally {
      idle.forEach((socket) => socket.destroy());
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await http(service.url, '/health/live', { method: 'GET' })).status).to.equal(200);
  });
});

describe('HTTP: a body that stalls mid-way (issue 23, finding 13)', () => {
  let service: TestService;
  // The idle deadline comes first here, as it can with the defaults (both 30 s): the stall must still get its 408.
  before(async () => (service = await startTestService({ ...DEADLINES, REQUEST_TIMEOUT_MS: '5000', IDLE_TIMEOUT_MS: '800' })));
  after(() => service.dispose());

  it('is answered 408 with the error envelope and Connection: close when the socket falls idle, not closed silently', async () => {
    const head = 'POST /auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n';
    const ended = await slowClient(service.url, head + '{"email":"ada@', '');
    expect(ended.answer).to.match(/^HTTP\/1\.1 408 /);
    expect(ended.answer.toLowerCase()).to.include('connection: close');
    expect(ended.answer).to.include('{"message":"Request timeout","code":"REQUEST_TIMEOUT","errors":[{"field":null,"message":"the request did not arrive in time"}]}');
    expect(ended.afterMs).to.be.within(800, 800 + 1000 + SLACK_MS);
  });
});
